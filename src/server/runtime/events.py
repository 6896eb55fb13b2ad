"""The turn's stream events: DESIGN.md's names and the JSON each one carries.

``message-start`` · ``text-delta`` · ``tool-call`` · ``tool-result`` · ``steer`` · ``usage`` ·
``error`` · ``finish``. Every stream ends with ``finish`` or ``error``. A question's event
carries what the learner sees (shuffled, answer-free), never the answer key.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from studyhall.core.classroom.phases import derive_phase
from studyhall.core.classroom.steers import steer_part
from studyhall.core.classroom.turn_state import pending_questions
from studyhall.core.contracts.chat import DataPart, Message, TextPart, ToolCallPart, Usage
from studyhall.core.errors import ModelError, StoreError
from studyhall.server.runtime.views import part_view

Event = tuple[str, dict[str, Any]]

TERMINAL = frozenset({"finish", "error"})


@dataclass(frozen=True)
class TurnEvent:
    name: str
    data: dict[str, Any]


def message_start(message: Message) -> Event:
    return "message-start", {"message_id": message.id, "role": message.role, "agent": message.agent}


def text_delta(message_id: str, text: str) -> Event:
    return "text-delta", {"message_id": message_id, "text": text}


def tool_call(message_id: str, part: ToolCallPart) -> Event:
    return "tool-call", {"message_id": message_id, **part_view(part)}


def tool_result(message_id: str, part: ToolCallPart) -> Event:
    return "tool-result", {"message_id": message_id, **part_view(part)}


def steer(message: Message) -> Event:
    marker = steer_part(message)
    return "steer", {
        "message_id": message.id,
        "steer_id": marker.steer_id if marker else message.id,
        "kind": marker.kind if marker else None,
        "text": "\n\n".join(p.text for p in message.parts if isinstance(p, TextPart)),
        "data": {p.name: p.data for p in message.parts if isinstance(p, DataPart)},
    }


def usage(message_id: str, role: str, u: Usage, model: str | None) -> Event:
    return "usage", {
        "message_id": message_id,
        "role": role,
        "model": model,
        "input_tokens": u.input_tokens,
        "output_tokens": u.output_tokens,
        "cost_usd": u.cost_usd,
    }


def finish(reason: str, messages: Sequence[Message]) -> Event:
    return "finish", {
        "reason": reason,
        "phase": derive_phase(list(messages)),
        "pending": [p.tool_call_id for _, p in pending_questions(messages)],
    }


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
    "context_too_long": "new-session",
}


def model_error(error: ModelError) -> Event:
    return "error", {
        "kind": error.kind,
        "role": error.role,
        "message": str(error),
        "action": _ACTIONS.get(error.kind, "retry"),
    }


def store_error(error: StoreError) -> Event:
    return "error", {
        "kind": "store",
        "role": None,
        "message": f"Could not save the session: {error}",
        "action": "retry",
    }


def internal_error() -> Event:
    return "error", {
        "kind": "internal",
        "role": None,
        "message": "Something went wrong on our side and the turn stopped; what was shown is "
        "saved. Try again; the log file (logs/studyhall.log in the data folder) has details.",
        "action": "retry",
    }
