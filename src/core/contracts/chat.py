"""The chat record: one session's transcript, the only source of truth for the classroom.

Messages are made of parts (text, tool calls with their input/output/state, steers, data).
A message id is unique within a chat, so re-saving a message replaces it instead of
duplicating it (a replayed write is detectable by id).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, Union

from pydantic import Field
from studyhall.core.contracts.base import Record

Role = Literal["user", "assistant"]
AgentRole = Literal["prober", "teacher"]

# input-available: the call is complete and waits for a result (client tools wait for the
# learner); output-available / output-error: the call has its result; interrupted: the process
# died or the turn was stopped before a result existed (synthesized, never sent as pending).
ToolState = Literal["input-available", "output-available", "output-error", "interrupted"]


class TextPart(Record):
    type: Literal["text"] = "text"
    text: str


class ToolCallPart(Record):
    type: Literal["tool-call"] = "tool-call"
    tool_call_id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    input: dict[str, Any]
    state: ToolState
    output: Any = None
    error: str | None = None


class SteerPart(Record):
    """Marks a user-role message as a steer: a system-authored message for the model.

    ``steer_id`` is deterministic (``steer_<job_id>``, ``steer_probe_<chat_id>``,
    ``steer_ctx_<chat_id>``) so delivery can be checked exactly once.
    """

    type: Literal["steer"] = "steer"
    steer_id: str = Field(min_length=1)
    kind: Literal["handoff", "job", "context"]


class DataPart(Record):
    """Data for the UI only (artifacts, assessments); never sent to a provider."""

    type: Literal["data"] = "data"
    name: str = Field(min_length=1)
    data: dict[str, Any]


Part = Annotated[Union[TextPart, ToolCallPart, SteerPart, DataPart], Field(discriminator="type")]


class Usage(Record):
    """Tokens and cost of a model call; absent stays absent (None), never zero."""

    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None


class Message(Record):
    id: str = Field(min_length=1)
    role: Role
    parts: tuple[Part, ...] = ()
    created_at: datetime
    agent: AgentRole | None = None
    usage: Usage | None = None


class ChatRecord(Record):
    id: str = Field(min_length=1)
    topic: str | None = None
    title: str | None = None
    created_at: datetime
    updated_at: datetime
    messages: tuple[Message, ...] = ()


class ChatSummary(Record):
    id: str
    topic: str | None = None
    title: str | None = None
    created_at: datetime
    updated_at: datetime
    message_count: int
