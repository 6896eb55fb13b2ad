"""The chat record: one session's transcript, the only source of truth for the classroom.

Messages are made of parts (text, tool calls with their input/output/state, steers, data).
A message id is unique within a chat, so re-saving a message replaces it instead of
duplicating it (a replayed write is detectable by id).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, TypeVar

from pydantic import Field
from studyhall.core.contracts.base import Record

Role = Literal["user", "assistant"]

# The longest message a learner may send, and the longest session topic (characters).
MAX_MESSAGE_CHARS = 20_000
MAX_TOPIC_CHARS = 200
# The longest question ``studyhall ask`` and ``POST /api/ask`` take (characters).
MAX_QUESTION_CHARS = 4_000
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


# What a steer brings: the prober's hand-off, a finished job, the graph's context, the note a
# "Study this" session studies (its material).
SteerKind = Literal["handoff", "job", "context", "material"]


class SteerPart(Record):
    """Marks a user-role message as a steer: a system-authored message for the model.

    ``steer_id`` is deterministic (built in ``core.contracts.steers``) so delivery can be
    checked exactly once.
    """

    type: Literal["steer"] = "steer"
    steer_id: str = Field(min_length=1)
    kind: SteerKind


class DataPart(Record):
    """Data for the UI only (artifacts, assessments); never sent to a provider."""

    type: Literal["data"] = "data"
    name: str = Field(min_length=1)
    data: dict[str, Any]


Part = Annotated[TextPart | ToolCallPart | SteerPart | DataPart, Field(discriminator="type")]


_Figure = TypeVar("_Figure", int, float)


class Usage(Record):
    """Tokens and cost of a model call; absent stays absent (None), never zero."""

    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None


def add_usage(*usages: Usage | None) -> Usage | None:
    """The sum of some calls' usage: each figure sums what the calls reported, and stays None
    when none reported it (absence is not zero); None when no figure was reported at all."""
    present = [u for u in usages if u is not None]

    def total(values: list[_Figure | None]) -> _Figure | None:
        known = [v for v in values if v is not None]
        return sum(known) if known else None

    summed = Usage(
        input_tokens=total([u.input_tokens for u in present]),
        output_tokens=total([u.output_tokens for u in present]),
        cost_usd=total([u.cost_usd for u in present]),
    )
    if (summed.input_tokens, summed.output_tokens, summed.cost_usd) == (None, None, None):
        return None
    return summed


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
    node_id: str | None = None  # the note or topic a "Study this" session studies
    created_at: datetime
    updated_at: datetime
    messages: tuple[Message, ...] = ()


def session_names(chat: ChatRecord | ChatSummary) -> tuple[str, ...]:
    """What a session may be called, best first: its title, its topic, the day it began."""
    dated = f"Session of {chat.created_at.day} {chat.created_at:%b %Y}"
    return tuple(dict.fromkeys(n for n in (chat.title, chat.topic, dated) if n))


def session_title(chat: ChatRecord | ChatSummary) -> str:
    """What a session is called where its findings land and where the dock names it."""
    return session_names(chat)[0]


class ChatSummary(Record):
    id: str
    topic: str | None = None
    title: str | None = None
    created_at: datetime
    updated_at: datetime
    message_count: int
