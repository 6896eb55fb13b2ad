"""Session routes: create and read chats, and the turns (messages, answers) as SSE streams.

Errors are raised and answered by ``http.errors`` (a second request while a turn runs: 409 with
``Retry-After``). Once a stream has started, failures arrive as an ``error`` event instead (the
status line is already sent); closing the stream does not stop the turn.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from studyhall.core.contracts.chat import MAX_MESSAGE_CHARS, MAX_TOPIC_CHARS
from studyhall.core.contracts.text_patterns import NOT_BLANK  # all-whitespace text is empty
from studyhall.core.contracts.turn_stream import TURN_STREAM
from studyhall.core.errors import InvalidInput
from studyhall.server.http.bodies import read_model
from studyhall.server.http.body_model import BodyModel
from studyhall.server.http.openapi import describe
from studyhall.server.http.sse import event_stream
from studyhall.server.runtime.classroom import Classroom


class NewChat(BodyModel):
    topic: str | None = Field(default=None, max_length=MAX_TOPIC_CHARS)
    # "Study this": the note or topic (a node of GET /api/graph) the session studies.
    node_id: str | None = Field(default=None, min_length=1, max_length=200)
    # A session on a goal resumes at its next step not yet solid (the topic comes from it).
    goal_id: str | None = Field(default=None, min_length=1, max_length=80)


class NewMessage(BodyModel):
    text: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS, json_schema_extra=NOT_BLANK)
    id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{1,64}$")
    # The learner's "Send as written": the guardrails do not scrub this message's text.
    as_written: bool = False


class Answer(BodyModel):
    tool_call_id: str = Field(min_length=1)
    answer: dict[str, Any]


class ChatId(BodyModel):
    id: str


def routes(classroom: Classroom) -> list[BaseRoute]:

    @describe(summary="Start a session", request=NewChat, response=ChatId,
              responses={400: "Bad topic", 404: "No such node or goal", 422: "Nothing to study"})
    async def create_chat(request: Request) -> Response:
        """Create a session; the prober greets on the first message. With ``node_id`` it
        studies that note: its sections and passages are the session's material. With
        ``goal_id``, a session on that goal (no ``topic`` then: the goal gives it) that resumes
        at the goal's next step not yet solid."""
        new = await read_model(request, NewChat)
        if new.goal_id is not None and (new.topic is not None or new.node_id is not None):
            raise InvalidInput('Send "goal_id" alone: a goal gives its topic and its steps.')
        record = (await classroom.start_goal_session(new.goal_id) if new.goal_id is not None
                  else await classroom.study(new.node_id, new.topic) if new.node_id is not None
                  else classroom.create_chat(new.topic))
        return JSONResponse({"id": record.id})

    async def list_chats(request: Request) -> Response:
        """Every session, newest first."""
        return JSONResponse(classroom.list_chats())

    @describe(summary="One session", responses={404: "No such session"})
    async def get_chat(request: Request) -> Response:
        """The record plus derived phase, plan statuses, pending questions (answer-free), usage."""
        return JSONResponse(classroom.chat(request.path_params["chat_id"]))

    @describe(summary="Send a message (SSE turn)", request=NewMessage, stream=TURN_STREAM,
              responses={400: "Bad message", 404: "No such session", 409: "A turn is running"})
    async def post_message(request: Request) -> Response:
        """Persist the learner's message and stream the turn that answers it."""
        new = await read_model(request, NewMessage)
        turn = await classroom.send_message(request.path_params["chat_id"], new.text, new.id,
                                         as_written=new.as_written)
        return event_stream(turn.events())

    @describe(summary="Answer a pending question (SSE continuation)", request=Answer,
              stream=TURN_STREAM,
              responses={400: "Bad answer", 404: "No such question", 409: "Busy or answered"})
    async def post_answer(request: Request) -> Response:
        """Grade and persist the answer, then stream the continuation turn."""
        body = await read_model(request, Answer)
        turn = await classroom.answer(request.path_params["chat_id"], body.tool_call_id, body.answer)
        return event_stream(turn.events())

    @describe(summary="Retry: run the owed turn (SSE)", stream=TURN_STREAM,
              responses={404: "No such session", 409: "Busy, or nothing to continue"})
    async def post_continue(request: Request) -> Response:
        """Run a turn on the record as it stands, e.g. after a provider error was fixed."""
        turn = await classroom.resume(request.path_params["chat_id"])
        return event_stream(turn.events())

    async def post_stop(request: Request) -> Response:
        """Stop the running turn; what was already streamed stays in the record."""
        return JSONResponse({"stopped": await classroom.stop(request.path_params["chat_id"])})

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
