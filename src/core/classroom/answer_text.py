"""Reading what a learner typed: normalized text for short answers, numbers for numeric ones.

Text is compared after Unicode NFKC, case folding, dropping punctuation and collapsing
whitespace ("  The  Mitochondria! " == "the mitochondria"). Apostrophes vanish ("don't" ==
"dont"); other punctuation becomes a space ("well-known" == "well known").

Numbers accept ``42``, ``-3.5``, ``.5``, ``1e3``, ``1,000`` / ``1 000`` (thousands groups),
``3/4``, ``1 1/2`` and a decimal comma when it cannot be a thousands group (``3,5``), plus
full-width digits and the Unicode minus. Values are exact fractions, so ``0.1 + 0.2`` style
float noise never decides a verdict.
"""

from __future__ import annotations

import math
import re
import unicodedata
from decimal import Decimal, InvalidOperation
from fractions import Fraction

_APOSTROPHES = "'\u2019\u02bc`\u00b4"
_MAX_NUMBER_TEXT = 100
_MAX_EXPONENT = 1000  # 1e1000 is fine; 1e999999999 would eat memory as an exact fraction

_DECIMAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_THOUSANDS = re.compile(r"([+-]?)(\d{1,3}(?:([, ])\d{3})(?:\3\d{3})*)(\.\d+)?")
_DECIMAL_COMMA = re.compile(r"[+-]?\d+,\d+")
_FRACTION = re.compile(r"([+-]?)(?:(\d+)\s+)?(\d+)\s*/\s*(\d+)")


def normalize_text(text: str) -> str:
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    out = []
    for c in text:
        if c in _APOSTROPHES:
            continue
        out.append(" " if unicodedata.category(c).startswith("P") else c)
    normalized = " ".join("".join(out).split())
    # An answer made only of punctuation ("?") still has to be comparable.
    return normalized or " ".join(text.split())


def choice_key(text: str) -> str:
    """What two quiz choices must share to count as the same option: case and spacing only.

    Unlike ``normalize_text`` no punctuation or symbol is dropped and no compatibility form is
    folded, so ``-5``/``5``, ``[[a/b]]``/``[[a\\b]]`` and ``O(n)``/``O(n²)`` stay distinct.
    """
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


def parse_number(text: str) -> Fraction | None:
    """The exact value of ``text``, or None when it is not a number we understand."""
    if len(text) > _MAX_NUMBER_TEXT:
        return None
    s = unicodedata.normalize("NFKC", text).strip().replace("\u2212", "-")
    m = _FRACTION.fullmatch(s)
    if m:
        sign, whole, num, den = m.groups()
        if int(den) == 0:
            return None
        fraction = Fraction(int(num), int(den)) + int(whole or 0)
        return -fraction if sign == "-" else fraction
    m = _THOUSANDS.fullmatch(s)
    if m:
        s = m.group(1) + m.group(2).replace(m.group(3), "") + (m.group(4) or "")
    elif _DECIMAL_COMMA.fullmatch(s):
        s = s.replace(",", ".")
    if not _DECIMAL.fullmatch(s):
        return None
    try:
        decimal = Decimal(s)
    except InvalidOperation:
        return None
    exponent = decimal.as_tuple().exponent
    if not isinstance(exponent, int) or abs(exponent) > _MAX_EXPONENT:
        return None
    return Fraction(decimal)


def number_from_json(value: object) -> Fraction | None:
    """A JSON number (not a bool, finite) or a numeric string, exactly."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return Fraction(repr(value))  # 0.1 means 1/10, not the nearest binary float
    if isinstance(value, str):
        return parse_number(value)
    return None


def show_number(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    as_float = float(value)
    return repr(as_float) if Fraction(repr(as_float)) == value else f"{value} (≈ {as_float:.6g})"
