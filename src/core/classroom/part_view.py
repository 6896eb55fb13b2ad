"""What the learner's client is shown of one tool call: the same view in the transcript and in
the turn's ``tool-call`` / ``tool-result`` events.

A question still waiting for an answer is shown as presented (shuffled, answer key removed);
the raw arguments appear once it is answered. A plan call carries its parsed plan; a quiz
the server rejected is marked ``rejected`` (the transcript shows nothing of it).
"""

from __future__ import annotations

from typing import Any

from studyhall.core.classroom.plan_json import plan_json
from studyhall.core.classroom.plan_parser import parse_plan
from studyhall.core.classroom.questions import present_quiz
from studyhall.core.classroom.turn_state import was_rejected
from studyhall.core.contracts.chat import ToolCallPart


def part_view(part: ToolCallPart) -> dict[str, Any]:
    view: dict[str, Any] = {
        "tool_call_id": part.tool_call_id,
        "name": part.name,
        "state": part.state,
    }
    pending = part.state == "input-available"
    if part.name == "quiz" and part.state in ("input-available", "output-available"):
        view["presented"] = present_quiz(part.tool_call_id, part.input)
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
    if part.name == "quiz" and was_rejected(part):
        view["rejected"] = True  # the model hears why; the learner never sees it
    return view
