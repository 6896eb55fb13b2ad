"""One way to read a JSON request body: a size limit (413), valid JSON nested no deeper than a
request needs (400), and, given a pydantic model, the right shape (400). Every refusal is an
``InvalidInput`` (or ``BodyTooLarge``), answered as the usual ``{"error", "message"}``.

An empty body reads as ``{}``, so a route whose fields are all optional takes a bare POST.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from studyhall.core.errors import InvalidInput
from studyhall.server.http.errors import BodyTooLarge
from studyhall.server.http.numbers import MAX_JSON_DIGITS, digits_value, is_digits

M = TypeVar("M", bound=BaseModel)

MAX_BODY_BYTES = 1024 * 1024  # every JSON body a route takes today is far smaller
# Our deepest body (a quiz answer) is four levels; a hostile one (``[`` x 200,000) must not
# reach code that recurses over it.
MAX_DEPTH = 32


async def read_json(request: Request, *, limit: int = MAX_BODY_BYTES) -> Any:
    """The body as JSON, within ``limit`` bytes and ``MAX_DEPTH`` levels."""
    raw = await _read(request, limit)
    if not raw.strip():
        return {}
    try:
        value = json.loads(raw, parse_int=_bounded_int)
    except RecursionError:
        raise _too_deep() from None
    except ValueError:  # JSON errors and bytes that are not UTF-8 alike
        raise InvalidInput("The request body is not valid JSON.") from None
    if _deeper_than(value, MAX_DEPTH, raw):
        raise _too_deep()
    return value


async def read_model(request: Request, model: type[M], *, limit: int = MAX_BODY_BYTES,
                     hint: str | None = None, refused: str = "The request is not right") -> M:
    """The body validated as ``model``; ``refused`` opens the message, ``hint`` says what to send."""
    body = await read_json(request, limit=limit)
    try:
        # Strict: JSON types as sent, as the OpenAPI schema says (0 is not false, "1" not 1);
        # JSON has one kind of number, so 2.0 is the integer 2 (as JSON Schema reads it).
        return model.model_validate(_whole_numbers(body), strict=True)
    except ValidationError as e:
        problems = "; ".join(
            f"{'.'.join(str(x) for x in err['loc']) or 'body'}: {err['msg']}" for err in e.errors()
        )
        tail = f" {hint}" if hint else ""
        raise InvalidInput(f"{refused}: {problems}.{tail}") from None


async def _read(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length", "")
    if is_digits(declared) and digits_value(declared, limit) is None:  # over: never int()ed whole
        raise _too_large(limit)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():  # stop reading as soon as it is over the limit
        size += len(chunk)
        if size > limit:
            raise _too_large(limit)
        chunks.append(chunk)
    return b"".join(chunks)


def _bounded_int(text: str) -> int:
    # The JSON reader hands every integer literal here before making it an int. Past Python's
    # 4,300 digits int() fails (a ValueError, read as "not JSON"): refuse it by length, saying
    # so. Shorter ones are read as before; a field's own bounds then judge them.
    if len(text.lstrip("-")) > MAX_JSON_DIGITS:
        raise InvalidInput(f"A number in the request body has more than {MAX_JSON_DIGITS:,} "
                           "digits; no field here takes one that long.")
    return int(text)


def _whole_numbers(value: Any) -> Any:
    """``value`` with every float that is a whole number (``2.0``) made an int."""
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if isinstance(value, dict):
        return {k: _whole_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_whole_numbers(v) for v in value]
    return value  # read_json capped the depth: this recursion is bounded


def _too_large(limit: int) -> BodyTooLarge:
    return BodyTooLarge(f"The request body is over this route's limit of {limit:,} bytes; "
                        "send less at a time.")


def _too_deep() -> InvalidInput:
    return InvalidInput(f"The request body is nested more than {MAX_DEPTH} levels deep; "
                        "no request here needs that.")


def _deeper_than(value: Any, limit: int, raw: bytes) -> bool:
    if not isinstance(value, (dict, list)) or raw.count(b"[") + raw.count(b"{") <= limit:
        return False  # cannot be: too few brackets (the common case, no walk)
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:  # iterative, so a deep value cannot exhaust the stack here either
        item, depth = stack.pop()
        if depth > limit:
            return True
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False
