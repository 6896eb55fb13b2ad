"""Shape guards shared by every store (file and in-memory): what is written must read back.

A record is refused (``StoreError``, nothing written) unless it is the expected contract class
and its JSON validates again as that class — so a ``model_construct``-ed or mutated object, a
NaN, or an unserialisable value never reaches a file ("schema-valid <=> parseable").
"""

from __future__ import annotations

import hashlib
import re
from typing import TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticSerializationError
from studyhall.core.errors import StoreError

M = TypeVar("M", bound=BaseModel)

_SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}")
_SLUG_BAD = re.compile(r"[^A-Za-z0-9_.-]+")


def describe_validation(exc: ValidationError, model: type[BaseModel]) -> str:
    """One line: 'not valid JSON (...)' or 'does not fit Model (field: message)'."""
    errors = exc.errors(include_url=False, include_input=False)
    if not errors:
        return f"does not fit {model.__name__}"
    first = errors[0]
    if first.get("type") == "json_invalid":
        return f"not valid JSON ({first.get('msg', '')})"
    loc = ".".join(str(p) for p in first.get("loc", ())) or "record"
    more = f" and {len(errors) - 1} more problem(s)" if len(errors) > 1 else ""
    return f"does not fit {model.__name__} ({loc}: {first.get('msg', '')}{more})"


def checked(
    model: type[M], value: object, what: str, *, indent: int | None = None
) -> tuple[M, bytes]:
    """Return a fresh validated copy of ``value`` and its JSON bytes, or refuse with StoreError."""
    if not isinstance(value, model):
        raise StoreError(
            f"Refused to save {what}: expected a {model.__name__}, got {type(value).__name__}. "
            "Nothing was written."
        )
    try:
        data = value.model_dump_json(by_alias=True, warnings=False, indent=indent).encode("utf-8")
    except (PydanticSerializationError, ValueError, TypeError) as e:
        raise StoreError(
            f"Refused to save {what}: it holds a value that cannot be written as JSON ({e}). "
            "Nothing was written."
        ) from e
    try:
        copy = model.model_validate_json(data)
    except ValidationError as e:
        raise StoreError(
            f"Refused to save {what}: it {describe_validation(e, model)}. Nothing was written."
        ) from e
    return copy, data


def is_safe_id(value: object) -> bool:
    """Ids that become file names: letters, digits, '_', '.', '-'; no leading dot; <= 128 chars."""
    return isinstance(value, str) and _SAFE_ID.fullmatch(value) is not None


def require_safe_id(kind: str, value: str) -> None:
    if not is_safe_id(value):
        raise StoreError(
            f"Refused to save {kind} {value!r}: a {kind} id may only contain letters, digits, "
            "'_', '.' and '-' (not starting with '.', at most 128 characters). Nothing was written."
        )


def file_stem(key: str) -> str:
    """A file name for any key: the key itself when safe, else a readable slug plus a hash."""
    if is_safe_id(key):
        return key
    slug = _SLUG_BAD.sub("-", key).strip("-.")[:60] or "key"
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:12]
    return f"{slug}-{digest}"
