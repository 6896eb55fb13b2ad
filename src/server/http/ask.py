"""``POST /api/ask``: a grounded question as SSE — ``sources`` first, then ``text-delta``
tokens, then ``finish`` (``navigate`` / ``suggest`` may follow ``sources``).

Body: ``{"question", "source_id"?, "t"?, "page"?, "history"?}``; a position makes "this"
questions about what is on screen (``IN_MOMENT``) and scopes others to that source first
(``IN_SOURCE``). ``history`` (``[{"role": "user"|"assistant", "text"}]``, oldest first) is the
conversation the question follows: with a model, a follow-up that leans on it ("how does *it*
handle cycles?") is also searched as a standalone rewrite, and the answer sees the recent turns.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import BaseRoute, Route
from studyhall.core.errors import InvalidInput, StudyhallError
from studyhall.core.library.retrieval.chunking import Position
from studyhall.core.library.retrieval.rewriting import Turn
from studyhall.server.http.errors import error_body
from studyhall.server.http.openapi import describe
from studyhall.server.runtime.asking import ask_events
from studyhall.server.services import Services


class AskTurn(BaseModel):
    role: Literal["user", "assistant"]
    text: str = Field(max_length=20_000)


class AskRequest(BaseModel):
    question: str = Field(min_length=1, max_length=4000)
    source_id: str | None = Field(default=None, min_length=1, max_length=200)
    t: float | None = Field(default=None, ge=0, le=1_000_000)
    page: int | None = Field(default=None, ge=1, le=1_000_000)
    # Recent turns, oldest first; only the last few are used (see core.library.rewriting).
    history: list[AskTurn] = Field(default_factory=list, max_length=50)


def _parse(body: Any) -> AskRequest:
    try:
        req = AskRequest.model_validate(body)
    except ValidationError as e:
        problems = "; ".join(f"{'.'.join(str(x) for x in err['loc']) or 'body'}: {err['msg']}"
                             for err in e.errors())
        raise InvalidInput(f"The request is not right: {problems}.") from e
    if not req.question.strip():
        raise InvalidInput("The question is empty.")
    if (req.t is not None or req.page is not None) and req.source_id is None:
        raise InvalidInput("A position (t or page) needs the source_id it is in.")
    return req


def _frame(name: str, data: dict[str, Any]) -> bytes:
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)
    return f"event: {name}\ndata: {payload}\n\n".encode()


def routes(services: Services) -> list[BaseRoute]:
    @describe(summary="Ask a grounded question about imported material", request=AskRequest,
              responses={400: "Bad request"}, stream=True)
    async def ask(request: Request) -> Response:
        """Retrieval always runs; the answer cites only passages listed in ``sources``."""
        try:
            body = await request.json()
        except ValueError as e:
            raise InvalidInput("The request body is not valid JSON.") from e
        req = _parse(body)
        position = (Position(req.source_id, t=req.t, page=req.page)
                    if req.source_id is not None else None)
        history = [Turn(t.role, t.text) for t in req.history]

        async def stream() -> AsyncIterator[bytes]:
            try:
                async for name, data in ask_events(services, req.question.strip(), position,
                                                   history=history):
                    yield _frame(name, data)
            except StudyhallError as e:  # the status line is sent: say it as the last event
                yield _frame("error", error_body(e))

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    return [Route("/api/ask", ask, methods=["POST"])]
