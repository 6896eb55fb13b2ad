"""A quiz is refused only for real duplicates (case and spacing), never for choices that differ
in meaning; a refused quiz never reaches the learner: no card, no current plan step."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from studyhall.core.agents.tools import argument_error, json_error
from studyhall.core.classroom.answer_text import choice_key
from studyhall.core.classroom.part_view import part_view
from studyhall.core.classroom.plan_parser import parse_plan
from studyhall.core.classroom.plan_status import derive_plan_statuses
from studyhall.core.classroom.questions import validate_quiz
from studyhall.core.classroom.turn_state import SKIPPED, was_rejected
from studyhall.core.contracts.chat import Message, ToolCallPart


def quiz(*choices: str) -> dict:
    return {"questions": [{"prompt": "Which?", "choices": list(choices), "correct": [0]}]}


@pytest.mark.parametrize("pair", [
    ("-5", "5"),
    ("[[Projects/Plan]]", "[[Projects\\Plan]]"),
    ("O(n)", "O(n²)"),
    ("O(n)", "O(n^2)"),
    ("x + y", "x - y"),
    ("3.5", "35"),
    ("`a/b`", "`a.b`"),
])
def test_choices_that_differ_in_meaning_are_distinct(pair: tuple[str, str]) -> None:
    assert validate_quiz(quiz(*pair)) == []


@pytest.mark.parametrize("pair", [("Paris", "paris"), ("a  tree", "a tree"), (" x ", "x")])
def test_choices_that_differ_only_in_case_or_spacing_are_the_same_option(pair: tuple[str, str]) -> None:
    problems = validate_quiz(quiz(*pair))
    assert problems and "same option twice" in problems[0]
    assert choice_key(pair[0]) == choice_key(pair[1])


def call(call_id: str, state: str, *, error: str | None = None, output: object = None,
         node: str = "b") -> ToolCallPart:
    return ToolCallPart(tool_call_id=call_id, name="quiz", input={**quiz("1", "2"), "plan_node": node},
                        state=state, error=error, output=output)  # type: ignore[arg-type]


def test_a_rejected_quiz_is_marked_and_a_skipped_one_is_not() -> None:
    rejected = call("q1", "output-error", error=argument_error("quiz", ["questions[0].choices has the same option twice"]))
    skipped = call("q2", "output-error", error=SKIPPED)
    assert was_rejected(rejected) and part_view(rejected)["rejected"] is True
    assert not was_rejected(skipped) and "rejected" not in part_view(skipped)
    assert "rejected" not in part_view(call("q3", "input-available"))


def test_a_rejected_quiz_does_not_make_its_plan_step_current() -> None:
    plan = parse_plan("flowchart TD\n  a[Vertices] --> b[Edges]\n  b --> c[Trees]").plan
    assert plan is not None
    at = datetime(2025, 1, 1, tzinfo=UTC)
    answered = call("q1", "output-available", output={"correct": 1}, node="a")
    refused = call("q2", "output-error", error=json_error("quiz", "{"), node="b")
    messages = [Message(id="m1", role="assistant", agent="teacher", parts=(answered, refused),
                        created_at=at)]
    statuses = derive_plan_statuses(plan, messages)
    assert statuses == {"a": "current", "b": "upcoming", "c": "upcoming"}
