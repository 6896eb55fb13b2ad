"""Turns the app's error tree into JSON answers: one status per error class, a message a user can
act on, and ``Retry-After`` when waiting is the fix. Every route raises; nothing else maps.

    error (MRO: the nearest listed class wins)    status
    StudyhallError  (a part missing in this build)    503
    ├── StoreError                                500
    │   └── NotFound                              404
    ├── ModelError  (the provider failed us)      502
    │   ├── ModelAuthError                        401
    │   ├── ModelRateLimited                      429 + Retry-After
    │   ├── ModelTimeout                          504
    │   ├── ModelProviderDown                     503 + Retry-After
    │   │   └── ModelStreamCut (shown in part)    502 (Try again re-runs now)
    │   └── ModelNotConfigured (+ script, network) 400
    ├── SecretError                               500
    ├── BusyError                                 409 + Retry-After
    ├── InvalidInput (+ answer, quiz, not read)   400
    │   ├── EmptyScope                            422
    │   └── BodyTooLarge                          413
    ├── Conflict                                  409
    ├── JobFailed                                 502
    └── SandboxError                              503
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TypeVar

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from studyhall.core.errors import (
    BusyError,
    Conflict,
    EmptyScope,
    InvalidInput,
    JobFailed,
    ModelAuthError,
    ModelError,
    ModelNotConfigured,
    ModelProviderDown,
    ModelRateLimited,
    ModelStreamCut,
    ModelTimeout,
    NotFound,
    SandboxError,
    SecretError,
    StoreError,
    StudyhallError,
)

log = logging.getLogger("studyhall.http")
T = TypeVar("T")


class BodyTooLarge(InvalidInput):
    """The request body is over the route's size limit (HTTP 413)."""


_STATUS: dict[type[StudyhallError], int] = {
    StudyhallError: 503,
    StoreError: 500,
    NotFound: 404,
    ModelError: 502,
    ModelAuthError: 401,
    ModelRateLimited: 429,
    ModelTimeout: 504,
    ModelProviderDown: 503,
    ModelStreamCut: 502,
    ModelNotConfigured: 400,
    SecretError: 500,
    BusyError: 409,
    InvalidInput: 400,
    BodyTooLarge: 413,
    EmptyScope: 422,
    Conflict: 409,
    JobFailed: 502,
    SandboxError: 503,
}

# Seconds a client should wait before trying again (None: no wait helps). A turn ends within
# seconds; the model adapter has already retried with backoff before a rate limit or an outage
# reaches us; a stream cut after part of the answer was shown is retried by the learner at once.
_RETRY_AFTER: dict[type[StudyhallError], int | None] = {
    BusyError: 1,
    ModelRateLimited: 30,
    ModelProviderDown: 30,
    ModelStreamCut: None,
}

INTERNAL_MESSAGE = (
    "Something went wrong on our side; the log file in the data folder "
    "(logs/studyhall.log) has the details."
)


def _nearest(error: StudyhallError, table: Mapping[type[StudyhallError], T], default: T) -> T:
    for kind in type(error).__mro__:
        if issubclass(kind, StudyhallError) and kind in table:
            return table[kind]
    return default


def status_for(error: StudyhallError) -> int:
    return _nearest(error, _STATUS, 500)


def retry_after(error: StudyhallError) -> int | None:
    return _nearest(error, _RETRY_AFTER, None)


def error_body(error: StudyhallError) -> dict[str, object]:
    body: dict[str, object] = {"error": type(error).__name__, "message": str(error)}
    if isinstance(error, ModelError):
        body["kind"] = error.kind
        body["role"] = error.role
    return body


def error_response(error: StudyhallError) -> JSONResponse:
    wait = retry_after(error)
    return JSONResponse(
        error_body(error),
        status_code=status_for(error),
        headers={"Retry-After": str(wait)} if wait is not None else None,
    )


async def studyhall_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StudyhallError)
    response = error_response(exc)
    # A refused request is routine (info); a failure on our side or upstream is worth a look.
    level = logging.WARNING if response.status_code >= 500 else logging.INFO
    log.log(level, "[http] %s %s -> %d %s", request.method, request.url.path,
            response.status_code, type(exc).__name__)
    return response


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse(
        {"error": "http", "message": exc.detail or "Request failed."},
        status_code=exc.status_code,
        headers=getattr(exc, "headers", None),
    )


async def unexpected_error(request: Request, exc: Exception) -> Response:
    log.error("[http] %s %s -> 500", request.method, request.url.path, exc_info=exc)
    return JSONResponse({"error": "internal", "message": INTERNAL_MESSAGE}, status_code=500)


EXCEPTION_HANDLERS = {
    StudyhallError: studyhall_error,
    HTTPException: http_error,
    Exception: unexpected_error,
}
