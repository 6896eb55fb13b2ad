"""Graph routes: the derived graph (a pure read — it never writes) and extraction runs.

``GET /api/graph`` → ``{"nodes", "edges", "clusters"}``; ``POST /api/chats/{id}/extract`` →
``{"run_id"}`` (runs now, or joins the run in flight for that chat); the run registry with
progress and abort under ``/api/extraction/runs``.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from studyhall.core.errors import NotFound
from studyhall.core.library.graph.view import GraphSnapshot
from studyhall.server.http.body_model import BodyModel
from studyhall.server.http.graph_body import GraphBody
from studyhall.server.http.openapi import describe
from studyhall.server.runtime.graph_reader import gc_paused
from studyhall.server.runtime.runtime import Runtime
from studyhall.server.services import Services


class RunId(BodyModel):
    run_id: str
    status: str


def _graph_route(read: Callable[[], GraphSnapshot]) -> Callable[[Request], Awaitable[Response]]:
    # The body is kept warm between reads: only nodes that changed are encoded again.
    body = GraphBody()
    lock = threading.Lock()  # renders run on worker threads; the body's cache is not shared

    def render() -> Response:
        snapshot = read()
        with lock, gc_paused():
            content = body.render(snapshot)
        return Response(content, media_type="application/json")

    async def get_graph(request: Request) -> Response:
        """The knowledge graph derived from the ledgers: nodes (text, state, score and its
        explanation, evidence trail, quiz history, sources, position, cluster), edges,
        clusters."""
        # Off the event loop: the first read of a large graph folds (or restores) it, and
        # turning many nodes into JSON takes a while too.
        return await asyncio.to_thread(render)

    return get_graph


def routes(services: Services, runtime: Runtime) -> list[BaseRoute]:
    scheduler = runtime.extraction

    @describe(summary="Extract a session into the graph now", response=RunId,
              responses={404: "No such session"})
    async def post_extract(request: Request) -> Response:
        """Run extraction over the chat's uncovered messages, or join the run in flight."""
        run = scheduler.start(request.path_params["chat_id"])
        return JSONResponse({"run_id": run.id, "status": run.status})

    async def get_coverage(request: Request) -> Response:
        """How much of a chat is not yet in the graph, and the run in flight if any."""
        chat_id = request.path_params["chat_id"]
        tokens = scheduler.uncovered_tokens(chat_id)
        running = next((r.id for r in scheduler.runs()
                        if r.source_id == chat_id and r.status == "running"), None)
        # Counted in exchanges (a learner's message or a reply): what the learner reads.
        views = scheduler.chat_views(chat_id)
        covered = scheduler.covered(chat_id)
        left = sum(1 for v in views if v.fingerprint not in covered)
        return JSONResponse({"uncovered_tokens": tokens,
                             "uncovered_exchanges": left,
                             "covered_exchanges": len(views) - left,
                             "chunk_tokens": services.settings_store.load().chunk_tokens,
                             "running": running})

    async def list_runs(request: Request) -> Response:
        """Extraction runs, newest first, with progress, drops and outcome."""
        return JSONResponse([r.to_dict() for r in scheduler.runs()])

    async def get_run(request: Request) -> Response:
        """One extraction run."""
        run = scheduler.get(request.path_params["run_id"])
        if run is None:
            raise NotFound(f"No extraction run {request.path_params['run_id']!r}.")
        return JSONResponse(run.to_dict())

    async def abort_run(request: Request) -> Response:
        """Stop a run: the model call in flight is cancelled and its batch writes nothing."""
        run_id = request.path_params["run_id"]
        if scheduler.get(run_id) is None:
            raise NotFound(f"No extraction run {run_id!r}.")
        return JSONResponse({"aborted": scheduler.abort(run_id)})

    return [
        # Node states include the learner ledgers (review grades, observations), as
        # GET /api/mastery does.
        Route("/api/graph", _graph_route(runtime.review.graph_snapshot), methods=["GET"],
              name="get_graph"),
        Route("/api/chats/{chat_id}/extract", post_extract, methods=["POST"],
              name="post_extract"),
        Route("/api/chats/{chat_id}/coverage", get_coverage, methods=["GET"],
              name="get_coverage"),
        Route("/api/extraction/runs", list_runs, methods=["GET"], name="list_extraction_runs"),
        Route("/api/extraction/runs/{run_id}", get_run, methods=["GET"],
              name="get_extraction_run"),
        Route("/api/extraction/runs/{run_id}/abort", abort_run, methods=["POST"],
              name="abort_extraction_run"),
    ]
