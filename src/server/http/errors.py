"""Turns the core's error tree into JSON answers with a status code and a message a user can act on."""

from __future__ import annotations

import logging

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from studyhall.core.errors import (
    BusyError,
    ModelAuthError,
    ModelError,
    ModelNotConfigured,
    ModelRateLimited,
    NotFound,
    SecretError,
    StoreError,
    StudyhallError,
)

log = logging.getLogger("studyhall.http")

_STATUS: tuple[tuple[type[StudyhallError], int], ...] = (
    (NotFound, 404),
    (BusyError, 409),
    (ModelNotConfigured, 400),
    (ModelAuthError, 401),
    (ModelRateLimited, 429),
    (ModelError, 502),
    (SecretError, 500),
    (StoreError, 500),
)


def status_for(error: StudyhallError) -> int:
    for kind, status in _STATUS:
        if isinstance(error, kind):
            return status
    return 400


def error_body(error: StudyhallError) -> dict[str, object]:
    body: dict[str, object] = {"error": type(error).__name__, "message": str(error)}
    if isinstance(error, ModelError):
        body["kind"] = error.kind
        body["role"] = error.role
    return body


async def studyhall_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StudyhallError)
    status = status_for(exc)
    log.warning("[http] %s %s -> %d %s", request.method, request.url.path, status, type(exc).__name__)
    return JSONResponse(error_body(exc), status_code=status)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse(
        {"error": "http", "message": exc.detail or "Request failed."},
        status_code=exc.status_code,
        headers=getattr(exc, "headers", None),
    )


async def unexpected_error(request: Request, exc: Exception) -> Response:
    log.error("[http] %s %s -> 500", request.method, request.url.path, exc_info=exc)
    return JSONResponse(
        {"error": "internal", "message": "Something went wrong on our side; the log file in the "
         "data folder (logs/studyhall.log) has the details."},
        status_code=500,
    )


EXCEPTION_HANDLERS = {
    StudyhallError: studyhall_error,
    HTTPException: http_error,
    Exception: unexpected_error,
}
