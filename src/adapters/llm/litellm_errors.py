"""Translate litellm / provider exceptions into ``core.errors.Model*`` a learner can act on.

The provider's own reason (the ``error.message`` of its JSON body, else the exception text) is
kept, trimmed, with the key the call sent and anything key-shaped masked. litellm wraps a
failure after the first chunk in ``MidStreamFallbackError`` (a 5xx subclass); it is judged by
the exception it wraps. Messages themselves are written in ``error_messages``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from types import ModuleType
from typing import Any

from studyhall.adapters.llm.error_messages import CallTarget, Facts, message
from studyhall.core.errors import (
    ModelAuthError,
    ModelBadRequest,
    ModelContextTooLong,
    ModelError,
    ModelNotConfigured,
    ModelProviderDown,
    ModelRateLimited,
    ModelStreamCut,
    ModelTimeout,
)
from studyhall.core.redaction import MASK, mask_key_shapes

__all__ = ["CallTarget", "classify", "is_retryable", "model_error", "names_response_format",
           "redact", "retry_after_seconds", "to_model_error"]

DETAIL_CHARS = 240
# Exception class names (anywhere in the chain) that mean no HTTP answer came back at all.
_NO_ANSWER = re.compile(r"Connect|ServerDisconnected|NameResolution|gaierror")


def redact(text: str, secrets: tuple[str, ...] = ()) -> str:
    """Provider text with the keys this call knows (the one it sent) and anything key-shaped
    masked."""
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, MASK)
    return mask_key_shapes(text)


def _chain(exc: BaseException | None) -> Iterator[BaseException]:
    """``exc``, what it wraps (litellm's ``original_exception``) and its causes, each once."""
    seen: set[int] = set()
    todo = [exc]
    while todo:
        current = todo.pop(0)
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        todo += [getattr(current, "original_exception", None), current.__cause__,
                 current.__context__]


def _inner(litellm: ModuleType, exc: BaseException) -> BaseException:
    """The failure litellm's mid-stream wrapper stands for (the exception itself otherwise)."""
    wrapper = getattr(litellm, "MidStreamFallbackError", None)
    original = getattr(exc, "original_exception", None)
    if wrapper is not None and isinstance(exc, wrapper) and isinstance(original, BaseException):
        return original
    return exc


def _body_reason(exc: BaseException) -> str:
    """The ``error.message`` (or ``error`` string) of the provider's JSON body, if any."""
    body: Any = getattr(exc, "body", None)
    if body is None:
        try:
            body = json.loads(getattr(getattr(exc, "response", None), "text", "") or "null")
        except (ValueError, TypeError, AttributeError):
            body = None
    if isinstance(body, dict) and "error" in body:
        body = body["error"]
    if isinstance(body, dict):
        body = body.get("message") or body.get("detail") or body.get("error")
    return body.strip() if isinstance(body, str) else ""


def _exception_reason(exc: BaseException) -> str:
    text = str(exc).split("Original exception:", 1)[0]
    text = text.split("Received Model Group", 1)[0]
    # "litellm.InternalServerError: InternalServerError: OpenAIException - model failed"
    text = re.sub(r"^(?:\s*(?:litellm\.)?\w+(?:Error|Exception|Timeout)\s*[:\-]\s*)+", "", text)
    return text.strip()


def detail_of(exc: BaseException, secrets: tuple[str, ...] = ()) -> str:
    """The provider's reason for ``exc``: trimmed to one short line, keys masked."""
    text = _body_reason(exc) or _exception_reason(exc)
    text = re.sub(r"\s+", " ", redact(text, secrets)).strip().rstrip(".")
    if re.fullmatch(r"(?i)(error code: \d+|connection error|none|null)?", text):
        return ""  # says nothing the status does not
    return text[:DETAIL_CHARS] + ("…" if len(text) > DETAIL_CHARS else "")


def _status(exc: BaseException) -> int | None:
    status = getattr(exc, "status_code", None)
    return status if isinstance(status, int) else None


def _unreachable(litellm: ModuleType, exc: BaseException) -> bool:
    """No HTTP answer came back: refused, unresolvable, reset before a status line."""
    if _body_reason(exc):
        return False
    if isinstance(exc, litellm.APIConnectionError) and not isinstance(exc, litellm.Timeout):
        return True
    return any(isinstance(e, ConnectionError) or _NO_ANSWER.search(type(e).__name__)
               for e in _chain(exc))


def retry_after_seconds(exc: BaseException) -> float | None:
    """The provider's Retry-After hint in seconds, when it sent one we can read."""
    for current in _chain(exc):
        headers: Any = getattr(current, "litellm_response_headers", None)
        if headers is None:
            headers = getattr(getattr(current, "response", None), "headers", None)
        try:
            value = headers.get("retry-after") if headers is not None else None
            if value is not None:
                return max(0.0, float(value))
        except (TypeError, ValueError, AttributeError):
            continue
    return None


def names_response_format(error: ModelError) -> bool:
    """A rejected request that blames the structured-output format (LM Studio refuses
    ``json_object``, some servers every ``response_format``)."""
    text = str(error).lower()
    return isinstance(error, ModelBadRequest) and any(
        word in text for word in ("response_format", "response format", "json_object",
                                  "json_schema", "json mode"))


_KINDS: dict[str, type[ModelError]] = {
    "auth": ModelAuthError,
    "forbidden": ModelAuthError,
    "rate_limit": ModelRateLimited,
    "context_too_long": ModelContextTooLong,
    "timeout": ModelTimeout,
    "not_found": ModelNotConfigured,
    "server": ModelProviderDown,
    "stream_cut": ModelStreamCut,
    "bad_request": ModelBadRequest,
}


def model_error(
    kind: str, target: CallTarget, *, attempts: int = 1, status: int | None = None,
    detail: str = "", facts: Facts | None = None,
) -> ModelError:
    """The typed error for a failure ``kind`` (see ``_KINDS``), with its user-facing message."""
    facts = facts or Facts(attempts=attempts, status=status, detail=detail)
    cls = _KINDS.get(kind, ModelError)
    return cls(message(kind, target, facts), role=target.role, provider=target.provider,
               attempts=facts.attempts)


def classify(litellm: ModuleType, exc: BaseException) -> str:
    """The failure kind of a litellm / provider exception. Order matters: subclasses first."""
    exc = _inner(litellm, exc)
    status = _status(exc)
    if isinstance(exc, litellm.ContextWindowExceededError):
        return "context_too_long"
    if isinstance(exc, litellm.AuthenticationError):
        return "auth"
    if isinstance(exc, litellm.PermissionDeniedError):
        return "forbidden"
    if isinstance(exc, litellm.RateLimitError):
        return "rate_limit"
    if isinstance(exc, (litellm.Timeout, TimeoutError)):  # before APIConnectionError, its base
        return "timeout"
    if isinstance(exc, litellm.NotFoundError):
        return "not_found"
    down = (
        litellm.APIConnectionError,
        litellm.ServiceUnavailableError,
        litellm.InternalServerError,
        litellm.BadGatewayError,
        ConnectionError,
    )
    if isinstance(exc, down) or (status is not None and status >= 500):
        return "server"
    if isinstance(exc, litellm.BadRequestError) or (status is not None and 400 <= status < 500):
        return "bad_request"
    return "unknown"


def to_model_error(
    litellm: ModuleType,
    exc: BaseException,
    target: CallTarget,
    *,
    attempts: int = 1,
    secrets: tuple[str, ...] = (),
    key_sent: bool = True,
    shown: bool = False,
    in_call: bool = False,
) -> ModelError:
    """The ``ModelError`` for ``exc`` (raise it ``from exc``). ``shown``: part of the answer
    already reached the caller, so a broken connection is a cut, not an outage."""
    if isinstance(exc, ModelError):
        return exc
    inner = _inner(litellm, exc)
    kind = classify(litellm, exc)
    detail = detail_of(inner, secrets)
    if kind == "unknown":
        detail = f"{type(inner).__name__}: {detail}" if detail else type(inner).__name__
    if shown and kind in ("server", "timeout", "unknown"):
        kind = "stream_cut"
    facts = Facts(attempts=attempts, status=_status(inner) if kind != "stream_cut" else None,
                  detail=detail, key_sent=key_sent,
                  unreachable=kind == "server" and _unreachable(litellm, inner), in_call=in_call)
    if facts.unreachable or kind in ("timeout", "stream_cut") and detail.lower().startswith(
            ("connection", "request timed out", "apitimeouterror")):
        facts = replace(facts, detail="", status=None)  # "Connection error" says nothing new
    return model_error(kind, target, facts=facts)


def is_retryable(error: ModelError) -> bool:
    """Rate limits and 5xx / connection failures may pass; a cut (text already shown) and
    everything else will not."""
    return isinstance(error, (ModelRateLimited, ModelProviderDown)) and not isinstance(
        error, ModelStreamCut)
