"""Translate litellm / provider exceptions into ``core.errors.Model*`` with a message a learner can act on.

Every message names the role and says what to do. Provider error text is only ever shown
after redaction (keys, bearer tokens) and truncation, and never for auth failures, where
providers like to echo part of the key back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from studyhall.core.errors import (
    ModelAuthError,
    ModelBadRequest,
    ModelContextTooLong,
    ModelError,
    ModelNotConfigured,
    ModelProviderDown,
    ModelRateLimited,
    ModelTimeout,
)

_SECRETISH = re.compile(r"(?i)\b(?:sk|rk|pk|api|key)[-_][A-Za-z0-9_\-]{8,}|bearer\s+\S+")
_SETTINGS = "Settings → Models"


@dataclass(frozen=True)
class CallTarget:
    """What a call was aimed at; enough to write a precise message (never holds the key)."""

    role: str
    model: str
    provider: str
    api_base: str | None = None
    local: bool = False

    @property
    def who(self) -> str:
        return self.role.replace("_", " ")


def redact(text: str, secrets: tuple[str, ...] = ()) -> str:
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, "[redacted]")
    return _SECRETISH.sub("[redacted]", text)


def _detail(exc: BaseException, secrets: tuple[str, ...]) -> str:
    text = str(exc).strip()
    text = re.sub(r"^litellm\.\w+:\s*", "", text)
    text = re.sub(r"\s+", " ", redact(text, secrets))
    return text[:240] + ("…" if len(text) > 240 else "")


def _status(exc: BaseException) -> int | None:
    status = getattr(exc, "status_code", None)
    return status if isinstance(status, int) else None


def retry_after_seconds(exc: BaseException) -> float | None:
    """The provider's Retry-After hint in seconds, when it sent one we can read."""
    headers: Any = getattr(exc, "litellm_response_headers", None)
    if headers is None:
        headers = getattr(getattr(exc, "response", None), "headers", None)
    try:
        value = headers.get("retry-after") if headers is not None else None
        return max(0.0, float(value)) if value is not None else None
    except (TypeError, ValueError, AttributeError):
        return None


def _tries(attempts: int) -> str:
    return f" after {attempts} tries" if attempts > 1 else ""


_KINDS: dict[str, type[ModelError]] = {
    "auth": ModelAuthError,
    "forbidden": ModelAuthError,
    "rate_limit": ModelRateLimited,
    "context_too_long": ModelContextTooLong,
    "timeout": ModelTimeout,
    "not_found": ModelNotConfigured,
    "server": ModelProviderDown,
    "bad_request": ModelBadRequest,
}


def _message(kind: str, t: CallTarget, attempts: int, status: int | None, detail: str) -> str:
    who, prov, model = t.who, t.provider, t.model
    if kind == "auth":
        return f"The {who}'s key for {prov} was refused ({status or 401}). Open {_SETTINGS} to replace it."
    if kind == "forbidden":
        return (
            f"The {who}'s key for {prov} may not use {model} ({status or 403}). Open {_SETTINGS} "
            f"to replace the key or pick another model."
        )
    if kind == "rate_limit":
        return (
            f"{prov} is rate-limiting the {who} ({status or 429}){_tries(attempts)}. Wait a minute "
            f"and try again, or pick another model in {_SETTINGS}."
        )
    if kind == "context_too_long":
        return (
            f"The conversation is too long for the {who}'s model ({model}). Start a new session, "
            f"or pick a model with a larger context window in {_SETTINGS}."
        )
    if kind == "timeout":
        return (
            f"The {who}'s model ({model}) did not answer in time. Try again; if it keeps "
            f"happening, check your connection or pick a faster model in {_SETTINGS}."
        )
    if kind == "not_found":
        return (
            f"{prov} does not know the model '{model}' set for the {who} ({status or 404}). "
            f"Pick another model in {_SETTINGS}."
        )
    if kind == "server" and (t.local or t.api_base):
        where = t.api_base or f"the local {prov} server"
        return (
            f"Nothing answered at {where} for the {who} ({model}){_tries(attempts)}. Start your "
            f"local model server (Ollama, LM Studio, ...) or fix its address in {_SETTINGS}."
        )
    if kind == "server":
        code = f" ({status})" if status else ""
        return (
            f"{prov} is unreachable or failing{code} for the {who}{_tries(attempts)}. Check your "
            f"connection and try again in a minute, or pick another model in {_SETTINGS}."
        )
    if kind == "bad_request":
        return (
            f"{prov} rejected the {who}'s request ({status or 400}): {detail or 'no details'} "
            f"Check the {who}'s model in {_SETTINGS}."
        )
    return (
        f"The {who}'s model call failed unexpectedly ({detail}). Try again; the log in the data "
        f"folder has details."
    )


def model_error(
    kind: str, target: CallTarget, *, attempts: int = 1, status: int | None = None, detail: str = ""
) -> ModelError:
    """The typed error for a failure ``kind`` (see ``_KINDS``), with its user-facing message."""
    cls = _KINDS.get(kind, ModelError)
    return cls(
        _message(kind, target, attempts, status, detail),
        role=target.role,
        provider=target.provider,
        attempts=attempts,
    )


def classify(litellm: ModuleType, exc: BaseException) -> str:
    """The failure kind of a litellm / provider exception. Order matters: subclasses first."""
    status = _status(exc)
    if isinstance(exc, litellm.ContextWindowExceededError):
        return "context_too_long"
    if isinstance(exc, litellm.AuthenticationError):
        return "auth"
    if isinstance(exc, litellm.PermissionDeniedError):
        return "forbidden"
    if isinstance(exc, litellm.RateLimitError):
        return "rate_limit"
    if isinstance(exc, litellm.Timeout):  # before APIConnectionError, its base class
        return "timeout"
    if isinstance(exc, litellm.NotFoundError):
        return "not_found"
    down = (
        litellm.APIConnectionError,
        litellm.ServiceUnavailableError,
        litellm.InternalServerError,
        litellm.BadGatewayError,
        ConnectionError,
        TimeoutError,
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
) -> ModelError:
    """The ``ModelError`` for ``exc`` (raise it ``from exc``)."""
    if isinstance(exc, ModelError):
        return exc
    kind = classify(litellm, exc)
    detail = _detail(exc, secrets)
    if kind == "unknown":
        detail = f"{type(exc).__name__}: {detail}"
    elif kind != "bad_request":
        detail = (
            ""  # only a rejected request's reason helps the learner (and auth text may echo keys)
        )
    return model_error(kind, target, attempts=attempts, status=_status(exc), detail=detail)


def is_retryable(error: ModelError) -> bool:
    """Rate limits and 5xx / connection failures may pass; everything else will not."""
    return isinstance(error, (ModelRateLimited, ModelProviderDown))
