"""Session routes: create and read chats, and the turns (messages, answers) as SSE streams.

Errors come back as JSON with a message a learner can act on; a second request while a turn
runs gets 409 with ``Retry-After``. Once a stream has started, failures arrive as an ``error``
event instead (the status line is already sent).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from pydantic import BaseModel, Field, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route
from studyhall.core.errors import BusyError, Conflict, InvalidInput, NotFound, StudyhallError
from studyhall.server.http.errors import error_body, status_for
from studyhall.server.http.openapi import describe
from studyhall.server.runtime.classroom import turn_runner
from studyhall.server.runtime.drive import Turn
from studyhall.server.runtime.graph_context import schedule_graph_context
from studyhall.server.runtime.turns import TurnRunner
from studyhall.server.runtime.views import chat_view
from studyhall.server.services import Services

RETRY_AFTER_SECONDS = 1


class NewChat(BaseModel):
    topic: str | None = Field(default=None, max_length=200)


class NewMessage(BaseModel):
    text: str = Field(min_length=1, max_length=20_000)
    id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{1,64}$")


class Answer(BaseModel):
    tool_call_id: str = Field(min_length=1)
    answer: dict[str, Any]


class ChatId(BaseModel):
    id: str


def sse(turn: Turn) -> StreamingResponse:
    """The turn's events as Server-Sent Events; closing the stream does not stop the turn."""

    async def body() -> AsyncIterator[bytes]:
        async for event in turn.events():
            data = json.dumps(event.data, ensure_ascii=False, separators=(",", ":"), default=str)
            yield f"event: {event.name}\ndata: {data}\n\n".encode()

    return StreamingResponse(
        body(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def _error(error: StudyhallError) -> JSONResponse:
    if isinstance(error, BusyError):
        return JSONResponse(
            error_body(error),
            status_code=409,
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
    status = 409 if isinstance(error, Conflict) else status_for(error)
    return JSONResponse(error_body(error), status_code=status)


async def _json(request: Request) -> Any:
    try:
        return await request.json()
    except ValueError as e:
        raise InvalidInput("The request body is not valid JSON.") from e


def _parse(model: type[BaseModel], body: Any) -> Any:
    try:
        return model.model_validate(body)
    except ValidationError as e:
        problems = "; ".join(
            f"{'.'.join(str(x) for x in err['loc']) or 'body'}: {err['msg']}" for err in e.errors()
        )
        raise InvalidInput(f"The request is not right: {problems}.") from e


def routes(services: Services) -> list[BaseRoute]:
    runner: TurnRunner = turn_runner(services)
    store = services.chat_store
    assert store is not None

    @describe(summary="Start a session", request=NewChat, response=ChatId,
              responses={400: "Bad topic"})
    async def create_chat(request: Request) -> Response:
        """Create an empty session; the prober greets on the first message."""
        try:
            body = await _json(request) if await request.body() else {}
            new = _parse(NewChat, body)
            record = runner.create_chat(new.topic)
        except StudyhallError as e:
            return _error(e)
        # Graph context (issue 7): the topic's nearest propositions, queued as a one-shot steer.
        schedule_graph_context(services, record.id, record.topic)
        return JSONResponse({"id": record.id})

    async def list_chats(request: Request) -> Response:
        """Every session, newest first."""
        return JSONResponse(
            [
                {**s.model_dump(mode="json"), "turn_running": runner.running(s.id)}
                for s in store.list()
            ]
        )

    @describe(summary="One session", responses={404: "No such session"})
    async def get_chat(request: Request) -> Response:
        """The record plus derived phase, plan statuses, pending questions (answer-free), usage."""
        chat_id = request.path_params["chat_id"]
        record = store.get(chat_id)
        if record is None:
            return _error(NotFound(f"No session {chat_id!r}."))
        return JSONResponse(chat_view(record, running=runner.running(chat_id)))

    @describe(summary="Send a message (SSE turn)", request=NewMessage, stream=True,
              responses={400: "Bad message", 404: "No such session", 409: "A turn is running"})
    async def post_message(request: Request) -> Response:
        """Persist the learner's message and stream the turn that answers it."""
        try:
            new = _parse(NewMessage, await _json(request))
            turn = await runner.send_message(request.path_params["chat_id"], new.text, new.id)
        except StudyhallError as e:
            return _error(e)
        return sse(turn)

    @describe(summary="Answer a pending question (SSE continuation)", request=Answer, stream=True,
              responses={400: "Bad answer", 404: "No such question", 409: "Busy or answered"})
    async def post_answer(request: Request) -> Response:
        """Grade and persist the answer, then stream the continuation turn."""
        try:
            body = _parse(Answer, await _json(request))
            turn = await runner.answer(request.path_params["chat_id"], body.tool_call_id,
                                       body.answer)
        except StudyhallError as e:
            return _error(e)
        return sse(turn)

    @describe(summary="Retry: run the owed turn (SSE)", stream=True,
              responses={404: "No such session", 409: "Busy, or nothing to continue"})
    async def post_continue(request: Request) -> Response:
        """Run a turn on the record as it stands, e.g. after a provider error was fixed."""
        try:
            turn = await runner.resume(request.path_params["chat_id"])
        except StudyhallError as e:
            return _error(e)
        return sse(turn)

    async def post_stop(request: Request) -> Response:
        """Stop the running turn; what was already streamed stays in the record."""
        chat_id = request.path_params["chat_id"]
        if store.get(chat_id) is None:
            return _error(NotFound(f"No session {chat_id!r}."))
        return JSONResponse({"stopped": await runner.stop(chat_id)})

    return [
        Route("/api/chats", create_chat, methods=["POST"], name="create_chat"),
        Route("/api/chats", list_chats, methods=["GET"], name="list_chats"),
        Route("/api/chats/{chat_id}", get_chat, methods=["GET"], name="get_chat"),
        Route("/api/chats/{chat_id}/messages", post_message, methods=["POST"],
              name="post_message"),
        Route("/api/chats/{chat_id}/answers", post_answer, methods=["POST"], name="post_answer"),
        Route("/api/chats/{chat_id}/continue", post_continue, methods=["POST"],
              name="post_continue"),
        Route("/api/chats/{chat_id}/stop", post_stop, methods=["POST"], name="post_stop"),
    ]
