"""Derived, never stored: the approved plan, node statuses and the session phase."""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import count
from typing import Any

from studyhall.core.classroom.phases import derive_phase
from studyhall.core.classroom.plan_status import current_plan, derive_plan_statuses
from studyhall.core.contracts.chat import Message, TextPart, ToolCallPart, ToolState

PLAN = "flowchart TD\nA[Basics] --> B[Paths] --> C[Trees]"
_ids = count()


def call(name: str, args: dict[str, Any], state: ToolState = "output-available",
         output: Any = None) -> Message:
    n = next(_ids)
    part = ToolCallPart(tool_call_id=f"call_{n}", name=name, input=args, state=state,
                        output=output, error="skipped" if state == "output-error" else None)
    return Message(id=f"m{n}", role="assistant", parts=(part,),
                   created_at=datetime(2026, 1, 1, tzinfo=UTC))


def user(text: str) -> Message:
    return Message(id=f"u{next(_ids)}", role="user", parts=(TextPart(text=text),),
                   created_at=datetime(2026, 1, 1, tzinfo=UTC))


def plan_init(state: ToolState = "output-available", approve: bool | None = True,
              mermaid: str = PLAN, title: str = "Graphs") -> Message:
    output = None if approve is None else {"approve": approve, **({} if approve else {"comment": "x"})}
    return call("plan_init", {"title": title, "mermaid": mermaid}, state, output)


def quiz(node: str | None, state: ToolState = "output-available", verdict: str = "correct") -> Message:
    args: dict[str, Any] = {"questions": [{"prompt": "?", "choices": ["a", "b"], "correct": [0]}]}
    if node is not None:
        args["plan_node"] = node
    output = {"results": [{"verdict": verdict}]} if state == "output-available" else None
    return call("quiz", args, state, output)


def statuses(*messages: Message) -> dict[str, str]:
    approved = current_plan(list(messages))
    assert approved is not None
    return dict(derive_plan_statuses(approved.plan, list(messages)))


# --- the approved plan ---------------------------------------------------------------------


def test_no_plan_until_the_learner_approves_one() -> None:
    assert current_plan([]) is None
    assert current_plan([plan_init("input-available", approve=None)]) is None  # pending
    assert current_plan([plan_init(approve=False)]) is None  # changes requested
    assert current_plan([plan_init("output-error", approve=None)]) is None  # rejected by checks


def test_the_approved_plan_is_parsed_from_its_call() -> None:
    message = plan_init(title="  Graph basics ")
    approved = current_plan([user("hi"), message])
    assert approved is not None
    assert approved.title == "Graph basics"
    assert approved.tool_call_id == message.parts[0].tool_call_id  # type: ignore[union-attr]
    assert [n.id for n in approved.plan.nodes] == ["A", "B", "C"]


def test_the_latest_approved_plan_wins_and_an_unreadable_one_is_skipped() -> None:
    first = plan_init()
    second = plan_init(mermaid="flowchart LR\nX --> Y")
    broken = plan_init(mermaid="flowchart LR\nX --x Y")
    approved = current_plan([first, plan_init(approve=False), second, broken])
    assert approved is not None and [n.id for n in approved.plan.nodes] == ["X", "Y"]


# --- statuses ------------------------------------------------------------------------------


def test_everything_is_upcoming_before_the_first_tagged_quiz() -> None:
    assert statuses(plan_init(), quiz(None)) == {"A": "upcoming", "B": "upcoming", "C": "upcoming"}


def test_a_pending_tagged_quiz_makes_its_node_current() -> None:
    assert statuses(plan_init(), quiz("A", "input-available")) == {
        "A": "current", "B": "upcoming", "C": "upcoming"
    }


def test_answered_nodes_are_visited_and_the_latest_is_current() -> None:
    assert statuses(plan_init(), quiz("A"), quiz("B", "input-available")) == {
        "A": "visited", "B": "current", "C": "upcoming"
    }
    # Answered last stays current until the teacher quizzes elsewhere.
    assert statuses(plan_init(), quiz("A"), quiz("B")) == {
        "A": "visited", "B": "current", "C": "upcoming"
    }


def test_going_back_to_a_node_makes_it_current_again() -> None:
    assert statuses(plan_init(), quiz("A"), quiz("B"), quiz("A", "input-available")) == {
        "A": "current", "B": "visited", "C": "upcoming"
    }


def test_any_verdict_counts_as_visited_but_a_skipped_quiz_does_not() -> None:
    result = statuses(plan_init(), quiz("A", verdict="dont-know"), quiz("B", "output-error"),
                      quiz("C", verdict="miss"), quiz("B", "output-error"))
    assert result == {"A": "visited", "B": "current", "C": "visited"}


def test_unknown_and_malformed_tags_are_ignored() -> None:
    assert statuses(plan_init(), quiz("A"), quiz("Z"), quiz(None)) == {
        "A": "current", "B": "upcoming", "C": "upcoming"
    }
    odd = call("quiz", {"questions": [], "plan_node": 3})
    assert statuses(plan_init(), odd)["A"] == "upcoming"


def test_progress_survives_a_revised_plan_that_keeps_its_ids() -> None:
    revised = plan_init(mermaid="flowchart TD\nA[Basics] --> B[Paths] --> D[New]")
    assert statuses(plan_init(), quiz("A"), quiz("B", "input-available"), revised) == {
        "A": "visited", "B": "current", "D": "upcoming"
    }


# --- phases --------------------------------------------------------------------------------


def probe_done(state: ToolState = "output-available") -> Message:
    args = {"floor": "f", "ceiling": "c", "goal": "g", "summary": "s"}
    return call("probe_done", args, state, {"status": "filed"} if state == "output-available" else None)


def test_phase_starts_with_the_probe() -> None:
    assert derive_phase([]) == "probe"
    assert derive_phase([user("hi"), quiz(None)]) == "probe"
    assert derive_phase([probe_done("input-available")]) == "probe"
    assert derive_phase([probe_done("interrupted")]) == "probe"


def test_the_first_probe_done_with_a_result_starts_planning() -> None:
    assert derive_phase([quiz(None), probe_done()]) == "plan"
    assert derive_phase([probe_done(), plan_init("input-available", approve=None)]) == "plan"
    assert derive_phase([probe_done(), plan_init(approve=False)]) == "plan"


def test_an_approved_plan_starts_teaching_for_good() -> None:
    assert derive_phase([probe_done(), plan_init(approve=False), plan_init()]) == "teach"
    assert derive_phase([probe_done(), plan_init(), quiz("A"), probe_done()]) == "teach"


def test_the_fold_is_strict_an_approval_while_probing_does_not_count() -> None:
    assert derive_phase([plan_init(), probe_done()]) == "plan"
