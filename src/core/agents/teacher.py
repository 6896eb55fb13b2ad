"""The teacher: authors the plan once, then teaches along it one idea at a time."""

from __future__ import annotations

from collections.abc import Sequence

from studyhall.core.agents.spec import AgentSpec
from studyhall.core.agents.tools import ASK_TOOL, PLAN_INIT_TOOL, quiz_tool
from studyhall.core.classroom.plan_status import current_plan, derive_plan_statuses
from studyhall.core.contracts.chat import Message


def _notes(topic: str | None, messages: Sequence[Message]) -> str:
    lines: list[str] = []
    if topic:
        lines.append(f"Topic the learner opened the session with: {topic}")
    approved = current_plan(messages)
    if approved is None:
        lines.append(
            "No plan is approved yet: author it with plan_init (or revise it if the learner "
            "asked for changes)."
        )
    else:
        statuses = derive_plan_statuses(approved.plan, messages)
        lines.append("The approved plan, with progress derived from tagged quizzes:")
        for node in approved.plan.nodes:
            lines.append(f"- {node.id} ({statuses.get(node.id, 'upcoming')}): {node.label}")
        lines.append("Tag every quiz with the plan_node it checks.")
    return "\n".join(lines)


TEACHER = AgentSpec(
    role="teacher",
    prompt_name="teacher.md",
    tools=(PLAN_INIT_TOOL, quiz_tool(tagged=True), ASK_TOOL),
    notes=_notes,
)
