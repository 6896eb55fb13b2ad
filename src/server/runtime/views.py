"""What the learner's client is shown of a chat: the record plus what is derived from it.

Derived at read, never stored: the phase, the approved plan with node statuses, the pending
questions, the folded usage. A question still waiting for an answer is shown as presented
(shuffled, answer key removed); the raw arguments appear once it is answered.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from studyhall.core.agents.loop import add_usage
from studyhall.core.classroom.phases import derive_phase
from studyhall.core.classroom.plan_parser import parse_plan
from studyhall.core.classroom.plan_status import current_plan, derive_plan_statuses
from studyhall.core.classroom.questions import present_quiz
from studyhall.core.classroom.turn_state import pending_questions
from studyhall.core.contracts.chat import ChatRecord, Message, ToolCallPart, Usage
from studyhall.core.contracts.plan import Plan, PlanStatus


def part_view(part: ToolCallPart) -> dict[str, Any]:
    view: dict[str, Any] = {
        "tool_call_id": part.tool_call_id,
        "name": part.name,
        "state": part.state,
    }
    pending = part.state == "input-available"
    if part.name == "quiz" and part.state in ("input-available", "output-available"):
        view["presented"] = _jsonable(present_quiz(part.tool_call_id, part.input))
        if not pending:
            view["input"] = part.input
    else:
        view["input"] = part.input
    if part.name == "plan_init" and isinstance(part.input.get("mermaid"), str):
        parsed = parse_plan(part.input["mermaid"])
        if parsed.plan is not None:
            view["plan"] = plan_json(parsed.plan)
    if part.state == "output-available":
        view["output"] = part.output
    if part.error is not None:
        view["error"] = part.error
    return view


def message_view(message: Message) -> dict[str, Any]:
    data = message.model_dump(mode="json", by_alias=True)
    data["parts"] = [
        {"type": "tool-call", **part_view(p)} if isinstance(p, ToolCallPart) else dumped
        for p, dumped in zip(message.parts, data["parts"])
    ]
    return data


def plan_json(plan: Plan, statuses: dict[str, PlanStatus] | None = None) -> dict[str, Any]:
    nodes = []
    for node in plan.nodes:
        item: dict[str, Any] = {"id": node.id, "label": node.label, "shape": node.shape}
        if node.group is not None:
            item["group"] = node.group
        if statuses is not None:
            item["status"] = statuses.get(node.id, "upcoming")
        nodes.append(item)
    return {
        "direction": plan.direction,
        "nodes": nodes,
        "edges": [
            {"from": e.source, "to": e.target, "label": e.label, "kind": e.kind}
            for e in plan.edges
        ],
    }


def approved_plan_view(messages: Sequence[Message]) -> dict[str, Any] | None:
    approved = current_plan(list(messages))
    if approved is None:
        return None
    view = plan_json(approved.plan, derive_plan_statuses(approved.plan, list(messages)))
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
    }


def _jsonable(value: Any) -> Any:
    dump = getattr(value, "model_dump", None)
    return dump(mode="json") if callable(dump) else value
