"""``POST /api/ask``: a grounded question as SSE — ``sources`` first, then ``text-delta``
tokens, then ``finish`` (``navigate`` / ``suggest`` may follow ``sources``).

Body: ``{"question", "source_id"?, "t"?, "page"?, "history"?}``; a position makes "this"
questions about what is on screen (``IN_MOMENT``) and scopes others to that source first
(``IN_SOURCE``). ``thread_id`` keeps the exchange in the Ask history (``GET /api/asks``,
``GET /api/asks/{id}``, ``DELETE /api/asks/{id}``): it is written before the passages go out and
as the answer streams (``complete: false`` until it ends), so a crash leaves it ``cut_off``.
``history`` (``[{"role": "user"|"assistant", "text"}]``, oldest first) is the conversation the
question follows: with a model, a follow-up that leans on it ("how does *it* handle cycles?")
is also searched as a standalone rewrite, and the answer sees the recent turns.

The events are the typed models of ``core/contracts/ask_stream.py``: the OpenAPI document
describes the stream from them and ``sse.py`` writes them. The routes get ``AskDesk`` alone.
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from studyhall.core.contracts.ask_stream import ASK_STREAM
from studyhall.core.contracts.asking import AskRequest
from studyhall.core.contracts.asks import AskHistory, AskThread
from studyhall.core.errors import NotFound
from studyhall.server.http.bodies import read_model
from studyhall.server.http.openapi import describe
from studyhall.server.http.sse import event_stream
from studyhall.server.runtime.ask import AskDesk

# Fifty turns of history at 20,000 characters each, in the worst UTF-8 and JSON escaping.
MAX_ASK_BYTES = 8 * 1024 * 1024


def routes(desk: AskDesk) -> list[BaseRoute]:
    @describe(summary="Ask a grounded question about imported material", request=AskRequest,
              responses={404: "No imported source has that id"}, stream=ASK_STREAM)
    async def ask(request: Request) -> Response:
        """Retrieval always runs; the answer cites only passages listed in ``sources``."""
        req = await read_model(request, AskRequest, limit=MAX_ASK_BYTES)
        position = await asyncio.to_thread(desk.position, req)  # reads the index
        return event_stream(desk.ask(req, position))

    @describe(summary="The Ask history: conversations, most recent first", response=AskHistory)
    async def list_asks(request: Request) -> Response:
        """Each conversation asked in the window with a ``thread_id``: its first question, how
        many questions it holds, when it was last asked in."""
        threads = await asyncio.to_thread(desk.threads)
        return JSONResponse(AskHistory(threads=threads).model_dump(mode="json"))

    @describe(summary="One Ask conversation, as it was answered", response=AskThread,
              responses={404: "No such conversation"})
    async def get_ask(request: Request) -> Response:
        """Every question of the conversation with its case, passages and answer text."""
        thread_id = request.path_params["thread_id"]
        thread = await asyncio.to_thread(desk.thread, thread_id)
        if thread is None:
            raise NotFound(f"There is no Ask conversation {thread_id!r}. GET /api/asks lists them.")
        return JSONResponse(thread.model_dump(mode="json"))

    @describe(summary="Forget an Ask conversation", status=204,
              responses={404: "No such conversation"})
    async def delete_ask(request: Request) -> Response:
        """Removes it from the history; nothing else (the sources, the graph) changes."""
        await asyncio.to_thread(desk.forget, request.path_params["thread_id"])
        return Response(status_code=204)

    return [
        Route("/api/ask", ask, methods=["POST"], name="ask"),
        Route("/api/asks", list_asks, methods=["GET"], name="list_asks"),
        Route("/api/asks/{thread_id}", get_ask, methods=["GET"], name="get_ask"),
        Route("/api/asks/{thread_id}", delete_ask, methods=["DELETE"], name="delete_ask"),
    ]
