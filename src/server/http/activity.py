"""Activity routes: what runs in the background, live, and how to stop it.

``GET /api/activity`` → ``{"running", "recent", "summary"}`` (jobs, extraction runs, imports;
per-run ``usage`` with tokens and cost, ``null`` when unknown); ``GET /api/activity/stream`` →
the same as Server-Sent Events (``activity`` whenever it changes; ``?limit=N`` ends after N);
``POST /api/activity/abort`` ``{"run_id"}`` → ``{"run_id", "kind", "aborted"}`` (true abort: the
task and its model call are cancelled; a job is marked aborted and nothing is delivered);
``GET /api/jobs/{job_id}`` → the job record (with its full result).
"""

from __future__ import annotations

from pydantic import Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from studyhall.core.contracts.turn_stream import ACTIVITY_STREAM
from studyhall.server.http.bodies import read_model
from studyhall.server.http.body_model import BodyModel
from studyhall.server.http.numbers import whole_number
from studyhall.server.http.openapi import Query, describe
from studyhall.server.http.query import query
from studyhall.server.http.sse import event_stream
from studyhall.server.runtime.workbench import Workbench


class AbortRequest(BodyModel):
    run_id: str = Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_.:-]+$")


class AbortResult(BodyModel):
    run_id: str
    kind: str
    aborted: bool


def _limit(request: Request) -> int | None:
    return whole_number(query(request, "limit").get("limit"), "limit", least=1, most=10_000)


def routes(workbench: Workbench) -> list[BaseRoute]:

    async def get_activity(request: Request) -> Response:
        """Running and recent jobs, extraction runs and imports, with tokens and cost."""
        return JSONResponse(workbench.activity())

    @describe(summary="Live activity (SSE)", stream=ACTIVITY_STREAM,
              query=[Query("limit", {"type": "integer", "minimum": 1, "maximum": 10_000},
                           description="end the stream after this many events")])
    async def stream_activity(request: Request) -> Response:
        """``activity`` events with the whole feed whenever it changes; ``?limit=N`` stops
        after N events."""
        return event_stream(workbench.activity_updates(limit=_limit(request)))

    @describe(summary="Stop a job or a run", request=AbortRequest, response=AbortResult,
              responses={400: "Bad body", 404: "No such run"})
    async def abort(request: Request) -> Response:
        """True abort: the task and its model call are cancelled. ``aborted`` is false when
        it had already finished."""
        body = await read_model(request, AbortRequest,
                                hint='Send {"run_id": "<id of a job or run>"}.')
        return JSONResponse(await workbench.abort_run(body.run_id))

    async def get_job(request: Request) -> Response:
        """One job: its input, status, outcome, result (the whole artifact), usage."""
        return JSONResponse(workbench.job(request.path_params["job_id"]).model_dump(mode="json"))

    return [
        Route("/api/activity", get_activity, methods=["GET"], name="get_activity"),
        Route("/api/activity/stream", stream_activity, methods=["GET"], name="stream_activity"),
        Route("/api/activity/abort", abort, methods=["POST"], name="abort_activity"),
        Route("/api/jobs/{job_id}", get_job, methods=["GET"], name="get_job"),
    ]
