"""What the learner's client is shown of a chat: the record plus what is derived from it.

Derived at read, never stored: the phase, the approved plan with node statuses, the pending
questions, the folded usage, the last turn's failure (read from its mark on the last message).
A question still waiting for an answer is shown as presented (shuffled, answer key removed);
the raw arguments appear once it is answered.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from studyhall.core.classroom.part_view import part_view
from studyhall.core.classroom.phases import derive_phase
from studyhall.core.classroom.plan_json import plan_json
from studyhall.core.classroom.plan_status import current_plan, derive_plan_statuses
from studyhall.core.classroom.turn_state import failure, pending_questions
from studyhall.core.contracts.chat import ChatRecord, Message, ToolCallPart, Usage, add_usage


def message_view(message: Message) -> dict[str, Any]:
    data = message.model_dump(mode="json", by_alias=True)
    data["parts"] = [
        {"type": "tool-call", **part_view(p)} if isinstance(p, ToolCallPart) else dumped
        for p, dumped in zip(message.parts, data["parts"])
    ]
    return data


def approved_plan_view(messages: Sequence[Message]) -> dict[str, Any] | None:
    approved = current_plan(list(messages))
    if approved is None:
        return None
    view = plan_json(approved.plan, statuses=derive_plan_statuses(approved.plan, list(messages)))
    view["title"] = approved.title
    view["tool_call_id"] = approved.tool_call_id
    return view


def total_usage(messages: Sequence[Message]) -> Usage | None:
    total: Usage | None = None
    for message in messages:
        if message.usage is not None:
            total = add_usage(total, message.usage)
    return total


def chat_view(record: ChatRecord, *, running: bool) -> dict[str, Any]:
    messages = list(record.messages)
    usage = total_usage(messages)
    return {
        "id": record.id,
        "topic": record.topic,
        "title": record.title,
        **({"node_id": record.node_id} if record.node_id else {}),  # what "Study this" studies
        "created_at": record.created_at.isoformat(),
        "updated_at": record.updated_at.isoformat(),
        "messages": [message_view(m) for m in messages],
        "phase": derive_phase(messages),
        "plan": approved_plan_view(messages),
        "pending": [
            {"message_id": m.id, **part_view(p)} for m, p in pending_questions(messages)
        ],
        "usage": usage.model_dump(mode="json") if usage else None,
        "turn_running": running,
        # Why the last turn failed, kept with the record: a reload still shows it.
        "failure": None if running else _as_stream_error(failure(messages)),
    }


def _as_stream_error(why: dict[str, Any] | None) -> dict[str, Any] | None:
    """The failure as the turn's ``error`` event said it (the one ``StreamError`` shape, whose
    ``error`` is the failure's kind), so a reload shows what the stream showed."""
    return None if why is None else {"error": why.get("kind", "internal"), **why}
