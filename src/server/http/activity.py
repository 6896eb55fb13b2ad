"""Activity routes: what runs in the background, live, and how to stop it.

``GET /api/activity`` → ``{"running", "recent", "summary"}`` (jobs, extraction runs, imports;
per-run ``usage`` with tokens and cost, ``null`` when unknown); ``GET /api/activity/stream`` →
the same as Server-Sent Events (``activity`` whenever it changes; ``?limit=N`` ends after N);
``POST /api/activity/abort`` ``{"run_id"}`` → ``{"run_id", "kind", "aborted"}`` (true abort: the
task and its model call are cancelled; a job is marked aborted and nothing is delivered);
``GET /api/jobs/{job_id}`` → the job record (with its full result).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route
from studyhall.core.errors import InvalidInput, NotFound, StudyhallError
from studyhall.server.http.errors import error_body, status_for
from studyhall.server.http.openapi import describe
from studyhall.server.runtime.activity import activity_feed
from studyhall.server.services import Services


class AbortRequest(BaseModel):
    run_id: str = Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_.:-]+$")


class AbortResult(BaseModel):
    run_id: str
    kind: str
    aborted: bool


def _error(error: StudyhallError) -> JSONResponse:
    return JSONResponse(error_body(error), status_code=status_for(error))


def _limit(request: Request) -> int | None:
    raw = request.query_params.get("limit")
    if raw is None:
        return None
    if not raw.isdigit() or not 1 <= int(raw) <= 10_000:
        raise InvalidInput('"limit" must be a whole number from 1 to 10000.')
    return int(raw)


def routes(services: Services) -> list[BaseRoute]:
    if services.chat_model is None or services.job_store is None:
        return []  # a build without models runs no jobs
    feed = activity_feed(services)
    store = services.job_store

    async def get_activity(request: Request) -> Response:
        """Running and recent jobs, extraction runs and imports, with tokens and cost."""
        return JSONResponse(feed.snapshot())

    @describe(summary="Live activity (SSE)", stream=True, responses={400: "Bad limit"})
    async def stream_activity(request: Request) -> Response:
        """``activity`` events with the whole feed whenever it changes; ``?limit=N`` stops
        after N events."""
        try:
            limit = _limit(request)
        except StudyhallError as e:
            return _error(e)
        body = (chunk.encode() async for chunk in feed.updates(limit=limit))
        return StreamingResponse(body, media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    @describe(summary="Stop a job or a run", request=AbortRequest, response=AbortResult,
              responses={400: "Bad body", 404: "No such run"})
    async def abort(request: Request) -> Response:
        """True abort: the task and its model call are cancelled. ``aborted`` is false when
        it had already finished."""
        try:
            try:
                body: Any = await request.json()
            except ValueError as e:
                raise InvalidInput("The request body is not valid JSON.") from e
            try:
                run_id = AbortRequest.model_validate(body).run_id
            except ValidationError as e:
                raise InvalidInput('Send {"run_id": "<id of a job or run>"}.') from e
            return JSONResponse(await feed.abort(run_id))
        except StudyhallError as e:
            return _error(e)

    async def get_job(request: Request) -> Response:
        """One job: its input, status, outcome, result (the whole artifact), usage."""
        job_id = request.path_params["job_id"]
        try:
            job = store.get(job_id)
        except StudyhallError as e:
            return _error(e)
        if job is None:
            return _error(NotFound(f"There is no job {job_id!r}."))
        return JSONResponse(job.model_dump(mode="json"))

    return [
        Route("/api/activity", get_activity, methods=["GET"], name="get_activity"),
        Route("/api/activity/stream", stream_activity, methods=["GET"], name="stream_activity"),
        Route("/api/activity/abort", abort, methods=["POST"], name="abort_activity"),
        Route("/api/jobs/{job_id}", get_job, methods=["GET"], name="get_job"),
    ]
