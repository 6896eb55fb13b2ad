"""Whole numbers a request sends (query parameters, ``Range``, ``Content-Length``), read one way:
ASCII digits only, and the length checked before ``int()`` runs. Python refuses to turn more than
4,300 digits into an int (a ``ValueError`` that would surface as a 500), and no count or byte
offset here needs more than ``MAX_DIGITS``: a longer number is a clear 400 (or, as a byte
position, one past the end of any file)."""

from __future__ import annotations

from typing import overload

from studyhall.core.errors import InvalidInput

# 10**18 - 1 at most: more than any count, byte offset or size this app meets, within an int64.
MAX_DIGITS = 18
LARGEST = 10**MAX_DIGITS - 1
# An integer inside a JSON body is read if Python can read it (its default limit); past that it
# is refused by length. Each field's own bounds judge the value.
MAX_JSON_DIGITS = 4300


def is_digits(text: str) -> bool:
    """Only ASCII digits, at least one (``str.isdigit`` also takes ``²`` and ``٣``)."""
    return text.isascii() and text.isdigit()


def digits_value(text: str, most: int) -> int | None:
    """``text`` (ASCII digits) as an int when it is at most ``most``, else ``None`` — decided
    from its length first, so a 5,000-digit string never becomes an int."""
    significant = text.lstrip("0") or "0"
    if len(significant) > len(str(most)):
        return None
    value = int(significant)
    return value if value <= most else None


@overload
def whole_number(raw: str | None, name: str, *, least: int, most: int | None = None,
                 default: int) -> int: ...
@overload
def whole_number(raw: str | None, name: str, *, least: int, most: int | None = None,
                 default: None = None) -> int | None: ...
def whole_number(raw: str | None, name: str, *, least: int, most: int | None = None,
                 default: int | None = None) -> int | None:
    """A query parameter's whole number from ``least`` to ``most`` (``None``: as large as
    ``MAX_DIGITS`` allows); ``default`` when it is not given; otherwise ``InvalidInput``."""
    if raw is None:
        return default
    ceiling = LARGEST if most is None else most
    value = digits_value(raw, ceiling) if is_digits(raw) else None
    if value is None or value < least:
        bound = f"to {most}" if most is not None else f"(at most {MAX_DIGITS} digits)"
        raise InvalidInput(f'"{name}" must be a whole number from {least} {bound}.')
    return value
