"""``POST /api/ask``: a grounded question as SSE — ``sources`` first, then ``text-delta``
tokens, then ``finish`` (``navigate`` / ``suggest`` may follow ``sources``).

Body: ``{"question", "source_id"?, "t"?, "page"?, "history"?}``; a position makes "this"
questions about what is on screen (``IN_MOMENT``) and scopes others to that source first
(``IN_SOURCE``). ``history`` (``[{"role": "user"|"assistant", "text"}]``, oldest first) is the
conversation the question follows: with a model, a follow-up that leans on it ("how does *it*
handle cycles?") is also searched as a standalone rewrite, and the answer sees the recent turns.
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route
from studyhall.core.contracts.asking import AskRequest
from studyhall.core.library.retrieval.rewriting import Turn
from studyhall.server.http.bodies import read_model
from studyhall.server.http.openapi import describe
from studyhall.server.http.sse import event_stream
from studyhall.server.runtime.asking import ask_events, position_of
from studyhall.server.services import Services

# Fifty turns of history at 20,000 characters each, in the worst UTF-8 and JSON escaping.
MAX_ASK_BYTES = 8 * 1024 * 1024


def routes(services: Services) -> list[BaseRoute]:
    @describe(summary="Ask a grounded question about imported material", request=AskRequest,
              responses={400: "Bad request", 404: "No such source", 413: "Body too large"},
              stream=True)
    async def ask(request: Request) -> Response:
        """Retrieval always runs; the answer cites only passages listed in ``sources``."""
        req = await read_model(request, AskRequest, limit=MAX_ASK_BYTES)
        position = await asyncio.to_thread(position_of, services, req)  # reads the index
        history = [Turn(t.role, t.text) for t in req.history]
        return event_stream(ask_events(services, req.question.strip(), position, history=history))

    return [Route("/api/ask", ask, methods=["POST"], name="ask")]
