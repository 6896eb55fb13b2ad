"""The turn stream's wire shapes (``POST /api/chats/{id}/messages``, ``…/answers``, ``…/retry``)
and the activity feed's, one typed ``WireEvent`` per SSE name — declared once: the agent loop's
events (``core/agents/turn_events.py``) hand their data to these models, the SSE encoder writes
them, and the OpenAPI document describes the streams from them (``http/stream_events.py``).

A turn ends with ``finish`` or ``error``: the one ``StreamError`` shape every stream uses, here
with ``kind`` (what failed, the same word as ``error``), ``role`` and ``action`` (what the
learner can do: ``open-settings``, ``retry``, ``new-session``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import ConfigDict, Field
from studyhall.core.contracts.stream import StreamError, WireEvent


class MessageStarted(WireEvent):
    name: ClassVar[str] = "message-start"
    message_id: str
    role: str
    agent: str | None


class TextStreamed(WireEvent):
    """Text the learner sees as it streams."""

    name: ClassVar[str] = "text-delta"
    message_id: str
    text: str


class _ToolPart(WireEvent):
    """A tool part as the learner sees it (``core/classroom/part_view.py``); a key a tool adds
    later is carried, not refused. The tool's name goes out as ``name`` (the class's own
    ``name`` is its SSE event name)."""

    model_config = ConfigDict(frozen=True, defer_build=True, extra="allow",
                              populate_by_name=True)

    message_id: str
    tool_call_id: str
    tool_name: str = Field(alias="name")
    state: str
    input: dict[str, Any] | None = None
    presented: Any = None  # a quiz, shuffled and answer-free
    plan: Any = None  # a plan_init's parsed plan
    error: Any = None
    rejected: bool | None = None


class ToolCalled(_ToolPart):
    """A tool call as it is made."""

    name: ClassVar[str] = "tool-call"


class ToolAnswered(_ToolPart):
    """A tool call's result: its ``output``, or its ``error``."""

    name: ClassVar[str] = "tool-result"
    output: Any = None


class SteerShown(WireEvent):
    name: ClassVar[str] = "steer"
    message_id: str
    steer_id: str
    kind: str | None
    text: str
    data: dict[str, Any]


class UsageReported(WireEvent):
    """What one model call cost; a figure the provider did not report is null."""

    name: ClassVar[str] = "usage"
    message_id: str
    role: str
    model: str | None
    input_tokens: int | None
    output_tokens: int | None
    cost_usd: float | None


class TurnFinished(WireEvent):
    name: ClassVar[str] = "finish"
    reason: str
    phase: str
    pending: list[str]  # tool call ids of the questions waiting for the learner


class ActivityChanged(WireEvent):
    """The whole activity feed, sent whenever it changes."""

    name: ClassVar[str] = "activity"
    running: list[dict[str, Any]]
    recent: list[dict[str, Any]]
    summary: dict[str, Any]


TURN_STREAM: tuple[type[WireEvent], ...] = (
    MessageStarted, TextStreamed, ToolCalled, ToolAnswered, SteerShown, UsageReported,
    TurnFinished, StreamError)
ACTIVITY_STREAM: tuple[type[WireEvent], ...] = (ActivityChanged, StreamError)
