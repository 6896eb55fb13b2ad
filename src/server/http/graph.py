"""Graph routes: the derived graph (a pure read — it never writes) and extraction runs.

``GET /api/graph`` → ``{"nodes", "edges", "clusters"}`` (everything; exports and tools);
``GET /api/graph/map`` → the slim columns Home paints, most important nodes first, in parts
(``graph_map.py``: ``?limit=&start=&version=``; ``?known=<version>`` answers ``{"version",
"unchanged": true}`` when nothing changed); ``GET /api/graph/nodes/{id}`` → one node in full
with its links, what it builds on and leads to (``graph_detail.py``);
``POST /api/chats/{id}/extract`` → ``{"run_id"}`` (runs now, or joins the run in flight for
that chat); the run registry with progress and abort under ``/api/extraction/runs``.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from studyhall.core.errors import InvalidInput, NotFound
from studyhall.core.library.graph.view import GraphSnapshot
from studyhall.server.http.body_model import BodyModel
from studyhall.server.http.graph_body import GraphBody
from studyhall.server.http.graph_detail import detail_route
from studyhall.server.http.graph_map import GraphMap, stale, unchanged
from studyhall.server.http.numbers import LARGEST, whole_number
from studyhall.server.http.openapi import Query, describe
from studyhall.server.http.query import query
from studyhall.server.runtime.library import Library
from studyhall.server.runtime.library.graph_reader import gc_paused

VERSION_CHARS = 64  # a map version ("<hash>.<n>") is far shorter; longer is not one of ours


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


def _map_route(read: Callable[[], GraphSnapshot]) -> Callable[[Request], Awaitable[Response]]:
    graph_map = GraphMap()
    lock = threading.Lock()

    def render(start: int, limit: int | None, known: str | None, version: str | None) -> Response:
        snapshot = read()
        with lock, gc_paused():
            current = graph_map.version(snapshot)
            if start == 0 and known == current:
                content = unchanged(current)
            elif version is not None and version != current:
                content = stale(current)  # the graph changed between parts: start again
            else:
                content = graph_map.part(snapshot, start, limit)
        return Response(content, media_type="application/json")

    @describe(summary="The graph as Home paints it (slim columns, in parts)",
              query=[Query("limit", {"type": "integer", "minimum": 1, "maximum": LARGEST},
                           description="nodes in this part (default: all from start)"),
                     Query("start", {"type": "integer", "minimum": 0, "maximum": LARGEST},
                           description="the first node of this part (nodes come most "
                                       "important first)"),
                     Query("version", {"type": "string", "maxLength": VERSION_CHARS},
                           description="the version earlier parts came from: if the graph "
                                       'changed since, the answer is {"version", "stale": true}'),
                     Query("known", {"type": "string", "maxLength": VERSION_CHARS},
                           description="the version the client holds: unchanged answers "
                                       '{"version", "unchanged": true}')])
    async def get_map(request: Request) -> Response:
        """Nodes as columns (id, short label, state code, position, cluster, evidence and
        quiz counts, sources), most important first, with the edges whose later end is in this
        part as index pairs; the first part also has the clusters and the sources table. A
        node's detail is ``GET /api/graph/nodes/{id}``."""
        given = query(request, "limit", "start", "version", "known")
        start = whole_number(given.get("start"), "start", least=0, default=0)
        limit = whole_number(given.get("limit"), "limit", least=1)
        for name in ("known", "version"):
            if len(given.get(name, "")) > VERSION_CHARS:
                raise InvalidInput(f'"{name}" is a graph version from an earlier answer '
                                   f"(at most {VERSION_CHARS} characters); reload the graph.")
        return await asyncio.to_thread(render, start, limit, given.get("known"),
                                       given.get("version"))

    return get_map


def routes(library: Library) -> list[BaseRoute]:

    @describe(summary="Extract a session into the graph now", response=RunId,
              responses={404: "No such session"})
    async def post_extract(request: Request) -> Response:
        """Run extraction over the chat's uncovered messages, or join the run in flight."""
        run = library.extract(request.path_params["chat_id"])
        return JSONResponse({"run_id": run.id, "status": run.status})

    async def get_coverage(request: Request) -> Response:
        """How much of a chat is not yet in the graph, and the run in flight if any."""
        return JSONResponse(await asyncio.to_thread(library.coverage,
                                                    request.path_params["chat_id"]))

    async def list_runs(request: Request) -> Response:
        """Extraction runs, newest first, with progress, drops and outcome."""
        return JSONResponse([r.to_dict() for r in library.extraction_runs()])

    async def get_run(request: Request) -> Response:
        """One extraction run."""
        run = library.extraction_run(request.path_params["run_id"])
        if run is None:
            raise NotFound(f"No extraction run {request.path_params['run_id']!r}.")
        return JSONResponse(run.to_dict())

    async def abort_run(request: Request) -> Response:
        """Stop a run: the model call in flight is cancelled and its batch writes nothing."""
        run_id = request.path_params["run_id"]
        if library.extraction_run(run_id) is None:
            raise NotFound(f"No extraction run {run_id!r}.")
        return JSONResponse({"aborted": library.abort_extraction(run_id)})

    return [
        # Node states include the learner ledgers (review grades, observations), as
        # GET /api/mastery does.
        Route("/api/graph", _graph_route(library.graph), methods=["GET"],
              name="get_graph"),
        Route("/api/graph/map", _map_route(library.graph), methods=["GET"],
              name="get_graph_map"),
        Route("/api/graph/nodes/{node_id:path}",
              detail_route(library.graph, library.sessions, library.fsrs_state,
                           library.source),
              methods=["GET"], name="get_graph_node"),
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
