"""Plan progress, derived from the transcript every time (never stored).

The plan that counts is the latest ``plan_init`` the learner APPROVED (a rejected or pending
one never drives anything). Progress comes from ``quiz`` calls tagged ``plan_node`` with an id
of that plan — from anywhere in the transcript, so a revised plan that keeps its ids keeps its
progress:

- ``current``: the node of the latest tagged quiz, whatever its state (waiting for the learner,
  answered, skipped or interrupted) — it is where the teacher is now. Nothing is current before
  the first tagged quiz.
- ``visited``: every other node with at least one answered tagged quiz (any verdict: visiting
  is about having been checked there, mastery is the knowledge graph's business).
- ``upcoming``: everything else.

Quizzes tagged with an id the plan does not have, and quizzes the server rejected, are ignored.
"""

from __future__ import annotations

from collections.abc import Sequence

from studyhall.core.classroom.phases import approves_plan, tool_calls
from studyhall.core.classroom.plan_parser import parse_plan
from studyhall.core.classroom.turn_state import was_rejected
from studyhall.core.contracts.chat import Message
from studyhall.core.contracts.plan import ApprovedPlan, Plan, PlanStatus


def current_plan(messages: Sequence[Message]) -> ApprovedPlan | None:
    """The latest approved plan whose source still parses (an unreadable one is skipped)."""
    approved = [p for p in tool_calls(messages, "plan_init") if approves_plan(p)]
    for part in reversed(approved):
        source = part.input.get("mermaid")
        if not isinstance(source, str):
            continue
        parsed = parse_plan(source)
        if parsed.plan is None:
            continue
        title = part.input.get("title")
        return ApprovedPlan(
            tool_call_id=part.tool_call_id,
            title=title.strip() if isinstance(title, str) else "",
            plan=parsed.plan,
        )
    return None


def derive_plan_statuses(plan: Plan, messages: Sequence[Message]) -> dict[str, PlanStatus]:
    ids = {n.id for n in plan.nodes}
    visited: set[str] = set()
    current: str | None = None
    for part in tool_calls(messages, "quiz"):
        node = part.input.get("plan_node")
        if not isinstance(node, str) or node not in ids or was_rejected(part):
            continue  # a rejected quiz never reached the learner: the teacher is not there
        current = node
        if part.state == "output-available":
            visited.add(node)
    statuses: dict[str, PlanStatus] = {}
    for n in plan.nodes:
        if n.id == current:
            statuses[n.id] = "current"
        elif n.id in visited:
            statuses[n.id] = "visited"
        else:
            statuses[n.id] = "upcoming"
    return statuses
