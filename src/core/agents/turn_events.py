"""The events of a turn, one typed value each from the agent loop to the SSE encoder.

DESIGN.md's names: ``message-start`` · ``text-delta`` · ``tool-call`` · ``tool-result`` ·
``steer`` · ``usage`` · ``error`` · ``finish``; every stream ends with ``finish`` or ``error``.
Each event has its wire ``name`` and its JSON ``data``, and ``wire_event()``: the typed wire model
(``core/contracts/turn_stream.py``) the SSE encoder writes and the OpenAPI document describes.
A question's event carries what the learner sees (shuffled, answer-free), never the answer key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from studyhall.core.classroom.part_view import part_view
from studyhall.core.classroom.phases import derive_phase
from studyhall.core.classroom.turn_state import pending_questions
from studyhall.core.contracts.chat import DataPart, Message, TextPart, ToolCallPart, Usage
from studyhall.core.contracts.steers import steer_part
from studyhall.core.contracts.stream import StreamError, WireEvent
from studyhall.core.contracts.turn_stream import (
    MessageStarted,
    SteerShown,
    TextStreamed,
    ToolAnswered,
    ToolCalled,
    TurnFinished,
    UsageReported,
)
from studyhall.core.errors import ModelError, StoreError


@dataclass(frozen=True, slots=True)
class MessageStart:
    name: ClassVar[str] = "message-start"
    message_id: str
    role: str
    agent: str | None

    @classmethod
    def of(cls, message: Message) -> MessageStart:
        return cls(message.id, message.role, message.agent)

    @property
    def data(self) -> dict[str, Any]:
        return {"message_id": self.message_id, "role": self.role, "agent": self.agent}

    def wire_event(self) -> WireEvent:
        return MessageStarted.model_validate(self.data)


@dataclass(frozen=True, slots=True)
class TurnTextDelta:
    """Text the learner sees as it streams (a model's ``contracts.models.TextDelta`` has no message)."""

    name: ClassVar[str] = "text-delta"
    message_id: str
    text: str

    @property
    def data(self) -> dict[str, Any]:
        return {"message_id": self.message_id, "text": self.text}

    def wire_event(self) -> WireEvent:
        return TextStreamed(message_id=self.message_id, text=self.text)


@dataclass(frozen=True, slots=True)
class ToolCall:
    name: ClassVar[str] = "tool-call"
    message_id: str
    part: ToolCallPart

    @property
    def data(self) -> dict[str, Any]:
        return {"message_id": self.message_id, **part_view(self.part)}

    def wire_event(self) -> WireEvent:
        return ToolCalled.model_validate(self.data)


@dataclass(frozen=True, slots=True)
class ToolResult:
    name: ClassVar[str] = "tool-result"
    message_id: str
    part: ToolCallPart

    @property
    def data(self) -> dict[str, Any]:
        return {"message_id": self.message_id, **part_view(self.part)}

    def wire_event(self) -> WireEvent:
        return ToolAnswered.model_validate(self.data)


@dataclass(frozen=True, slots=True)
class Steer:
    name: ClassVar[str] = "steer"
    message_id: str
    steer_id: str
    kind: str | None
    text: str
    attached: Mapping[str, Any]  # the steer's data parts by name, for the UI

    @classmethod
    def of(cls, message: Message) -> Steer:
        marker = steer_part(message)
        return cls(
            message_id=message.id,
            steer_id=marker.steer_id if marker else message.id,
            kind=marker.kind if marker else None,
            text="\n\n".join(p.text for p in message.parts if isinstance(p, TextPart)),
            attached={p.name: p.data for p in message.parts if isinstance(p, DataPart)},
        )

    @property
    def data(self) -> dict[str, Any]:
        return {"message_id": self.message_id, "steer_id": self.steer_id, "kind": self.kind,
                "text": self.text, "data": dict(self.attached)}

    def wire_event(self) -> WireEvent:
        return SteerShown.model_validate(self.data)


@dataclass(frozen=True, slots=True)
class UsageReport:
    """What one model call cost (``usage``); a figure the provider did not report is null."""

    name: ClassVar[str] = "usage"
    message_id: str
    role: str
    model: str | None
    usage: Usage

    @property
    def data(self) -> dict[str, Any]:
        return {
            "message_id": self.message_id,
            "role": self.role,
            "model": self.model,
            "input_tokens": self.usage.input_tokens,
            "output_tokens": self.usage.output_tokens,
            "cost_usd": self.usage.cost_usd,
        }

    def wire_event(self) -> WireEvent:
        return UsageReported.model_validate(self.data)


@dataclass(frozen=True, slots=True)
class Finish:
    name: ClassVar[str] = "finish"
    reason: str
    phase: str
    pending: tuple[str, ...]  # tool call ids of the questions waiting for the learner

    @classmethod
    def of(cls, reason: str, messages: Sequence[Message]) -> Finish:
        return cls(reason, derive_phase(list(messages)),
                   tuple(p.tool_call_id for _, p in pending_questions(messages)))

    @property
    def data(self) -> dict[str, Any]:
        return {"reason": self.reason, "phase": self.phase, "pending": list(self.pending)}

    def wire_event(self) -> WireEvent:
        return TurnFinished.model_validate(self.data)


# What the learner can do about each failure; the UI shows one button for it.
_ACTIONS = {
    "auth": "open-settings",
    "not_configured": "open-settings",
    "script_invalid": "open-settings",
    "network_disabled": "open-settings",
    "bad_request": "open-settings",
    "rate_limit": "retry",
    "timeout": "retry",
    "server": "retry",
    "stream_cut": "retry",
    "context_too_long": "new-session",
}


@dataclass(frozen=True, slots=True)
class TurnError:
    """The turn stopped on a failure (``error``): what happened and the one action that helps."""

    name: ClassVar[str] = "error"
    kind: str
    role: str | None
    message: str
    action: str

    @classmethod
    def from_model(cls, error: ModelError) -> TurnError:
        return cls(error.kind, error.role, str(error), _ACTIONS.get(error.kind, "retry"))

    @classmethod
    def from_store(cls, error: StoreError) -> TurnError:
        return cls("store", None, f"Could not save the session: {error}", "retry")

    @classmethod
    def internal(cls) -> TurnError:
        return cls(
            "internal", None,
            "Something went wrong on our side and the turn stopped; what was shown is saved. "
            "Try again; the log file (logs/studyhall.log in the data folder) has details.",
            "retry",
        )

    @property
    def data(self) -> dict[str, Any]:
        return {"kind": self.kind, "role": self.role, "message": self.message,
                "action": self.action}

    def wire_event(self) -> WireEvent:
        """The one ``error`` shape of every stream: ``error`` is the kind of failure."""
        return StreamError.model_validate({"error": self.kind, **self.data})


TurnEvent = MessageStart | TurnTextDelta | ToolCall | ToolResult | Steer | UsageReport | Finish | TurnError
