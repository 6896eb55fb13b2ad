"""Schemathesis hooks for the API run (``SCHEMATHESIS_HOOKS=tests.support.schemathesis_hooks``):
every 4xx must carry the ``{"error", "message"}`` body, and the activity stream — endless
unless ``?limit=N`` — is asked for one event at a time so a run cannot hang on it."""

from __future__ import annotations

from typing import Any

import schemathesis


@schemathesis.check
def error_body_on_4xx(ctx: Any, response: Any, case: Any) -> bool | None:
    """A refusal says what went wrong: ``{"error": str, "message": str}``."""
    if not 400 <= response.status_code < 500 or response.request.method == "HEAD":
        return None
    try:
        body = response.json()
    except ValueError:
        raise AssertionError(f"{response.status_code} without a JSON body: "
                             f"{response.text[:200]!r}") from None
    if not (isinstance(body, dict) and isinstance(body.get("error"), str)
            and isinstance(body.get("message"), str) and body["message"]):
        raise AssertionError(f"{response.status_code} without {{error, message}}: {body!r}")
    return None


@schemathesis.hook
def before_call(ctx: Any, case: Any, kwargs: dict[str, Any]) -> None:
    """Every phase's request to the activity stream (the coverage phase bypasses ``map_*``)."""
    if case.path != "/api/activity/stream" or case.method.upper() != "GET":
        return
    query = dict(case.query or {})
    limit = query.get("limit")
    if limit is None or str(limit).isdigit() and 1 <= int(str(limit)) <= 10_000:
        query["limit"] = "1"  # a valid limit: one event, then the stream ends
    case.query = query
