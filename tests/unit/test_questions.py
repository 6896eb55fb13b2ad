"""Questions: quiz validation, presentation (shuffled, no answers), grading and open questions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from studyhall.core.classroom.questions import (
    answer_ask,
    choice_order,
    grade_quiz,
    present_ask,
    present_quiz,
    validate_ask,
    validate_quiz,
)
from studyhall.core.contracts.quiz import QuizOutput
from studyhall.core.errors import InvalidAnswer, InvalidInput, InvalidQuiz

QUIZ: dict[str, Any] = {
    "plan_node": "B",
    "questions": [
        {"prompt": "2 + 2?", "choices": ["3", "4", "5", "22"], "correct": [1],
         "explanation": "Two pairs make four."},
        {"prompt": "Which are prime?", "choices": ["2", "3", "4", "9"], "correct": [0, 1]},
        {"prompt": "Capital of France?", "answer": ["Paris", "Paris, France"]},
        {"prompt": "3/4 as a decimal?", "answer": 0.75, "tolerance": 0.001},
    ],
}


def displayed(tool_call_id: str, q: int, *texts: str) -> list[int]:
    """The displayed positions of these choice texts, as the learner would click them."""
    shown = present_quiz(tool_call_id, QUIZ)["questions"][q]["choices"]
    return [shown.index(t) for t in texts]


# --- validation ----------------------------------------------------------------------------


def test_a_well_formed_quiz_has_no_problems() -> None:
    assert validate_quiz(QUIZ) == []
    assert validate_quiz({"questions": [{"prompt": "Name it", "answer": "x", "kind": "short"}]}) == []


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        ("not a dict", 'the quiz arguments must be a JSON object: {"questions": [...]}'),
        ({}, "questions must be a non-empty list of question objects"),
        ({"questions": []}, "questions must be a non-empty list"),
        ({"questions": [{"prompt": "x", "answer": "y"}] * 11}, "questions has 11 entries; a quiz has at most 10"),
        ({"questions": [{"prompt": "x", "answer": "y"}], "title": "t"}, "unknown field(s) title"),
        ({"questions": [{"prompt": "x", "answer": "y"}], "plan_node": ""}, "plan_node must be the id of a plan node"),
        ({"questions": ["x"]}, "questions[0] must be an object with a 'prompt'"),
        ({"questions": [{"answer": "y"}]}, "questions[0].prompt must be a non-empty string"),
        ({"questions": [{"prompt": "x" * 2001, "answer": "y"}]}, "questions[0].prompt is 2001 characters; the limit is 2000"),
        ({"questions": [{"prompt": "x", "answer": "y", "hint": 1}]}, "questions[0]: unknown field(s) hint"),
        ({"questions": [{"prompt": "x", "kind": "essay"}]}, "questions[0].kind must be one of single, multiple, short, numeric"),
        ({"questions": [{"prompt": "x", "choices": ["a"], "correct": [0]}]}, "questions[0].choices must be a list of 2 to 10 options"),
        ({"questions": [{"prompt": "x", "choices": ["a", " A "], "correct": [0]}]}, "questions[0].choices has the same option twice"),
        ({"questions": [{"prompt": "x", "choices": ["a", ""], "correct": [0]}]}, "questions[0].choices[1] must be a non-empty string"),
        ({"questions": [{"prompt": "x", "choices": ["a", "b"]}]}, "questions[0].correct must list the 0-based index"),
        ({"questions": [{"prompt": "x", "choices": ["a", "b"], "correct": [2]}]}, "questions[0].correct[0]: index 2 is out of range; there are 2 choices (0–1)"),
        ({"questions": [{"prompt": "x", "choices": ["a", "b"], "correct": [True]}]}, "questions[0].correct[0] must be an integer index, not True"),
        ({"questions": [{"prompt": "x", "choices": ["a", "b", "c"], "correct": [1, 1]}]}, "questions[0].correct lists index 1 twice"),
        ({"questions": [{"prompt": "x", "kind": "single", "choices": ["a", "b"], "correct": [0, 1]}]}, "questions[0] is single-choice, so correct must hold exactly one index"),
        ({"questions": [{"prompt": "x", "choices": ["a", "b"], "correct": [0], "answer": "a"}]}, "questions[0].answer does not apply to a single question"),
        ({"questions": [{"prompt": "x", "kind": "short"}]}, "questions[0].answer must be the accepted text"),
        ({"questions": [{"prompt": "x", "answer": ["ok", " "]}]}, "questions[0].answer[1] must be a non-empty string"),
        ({"questions": [{"prompt": "x", "kind": "short", "answer": "y", "choices": ["a", "b"]}]}, "questions[0].choices does not apply to a short question"),
        ({"questions": [{"prompt": "x", "kind": "numeric", "answer": "many"}]}, "questions[0].answer must be a number"),
        ({"questions": [{"prompt": "x", "answer": float("nan"), "kind": "numeric"}]}, "questions[0].answer must be a number"),
        ({"questions": [{"prompt": "x", "answer": 1, "tolerance": -1}]}, "questions[0].tolerance must be a number ≥ 0"),
        ({"questions": [{"prompt": "x", "answer": "y", "explanation": 3}]}, "questions[0].explanation must be a non-empty string"),
    ],
)
def test_malformed_quizzes_get_every_problem_back(args: Any, problem: str) -> None:
    problems = validate_quiz(args)
    assert any(problem in p for p in problems), problems


def test_all_problems_are_listed_at_once() -> None:
    problems = validate_quiz({"questions": [
        {"prompt": "", "choices": ["a", "b"], "correct": [5]},
        {"prompt": "ok", "kind": "numeric", "answer": "n/a"},
    ]})
    assert len(problems) == 3


def test_kind_is_inferred() -> None:
    shown = present_quiz("c", {"questions": [
        {"prompt": "a", "choices": ["x", "y"], "correct": [0]},
        {"prompt": "b", "choices": ["x", "y"], "correct": [0, 1]},
        {"prompt": "c", "answer": "x"},
        {"prompt": "d", "answer": 3},
        {"prompt": "e", "answer": "3/4", "kind": "numeric"},
    ]})["questions"]
    assert [q["kind"] for q in shown] == ["single", "multiple", "short", "numeric", "numeric"]


# --- presenting ----------------------------------------------------------------------------


def test_present_shows_shuffled_choices_and_never_the_answers() -> None:
    shown = present_quiz("call_1", QUIZ)
    text = json.dumps(shown)
    for secret in ("correct", "answer", "explanation", "tolerance", "Paris", "0.75", "Two pairs"):
        assert secret not in text
    q0 = shown["questions"][0]
    assert sorted(q0["choices"]) == sorted(QUIZ["questions"][0]["choices"])
    assert q0["choices"] == [QUIZ["questions"][0]["choices"][i] for i in choice_order("call_1", 0, 4)]
    assert q0["select"] == "one" and shown["questions"][1]["select"] == "many"
    assert [q.get("input") for q in shown["questions"][2:]] == ["text", "number"]
    assert shown["plan_node"] == "B" and shown["dont_know"] is True


def test_present_is_identical_on_every_render() -> None:
    assert present_quiz("call_7", QUIZ) == present_quiz("call_7", json.loads(json.dumps(QUIZ)))


def test_present_never_raises_on_a_malformed_record() -> None:
    shown = present_quiz("c", {"questions": "garbage"})
    assert shown["questions"] == [] and shown["errors"]


# --- grading -------------------------------------------------------------------------------


def test_grading_maps_displayed_indices_back_through_the_shuffle() -> None:
    grade = grade_quiz("call_1", QUIZ, {"responses": [
        {"choices": displayed("call_1", 0, "4")},
        {"choices": displayed("call_1", 1, "3", "2")},
        {"text": "  paris, FRANCE! "},
        {"number": "3/4"},
    ]})
    assert grade.verdicts == ["correct", "correct", "correct", "correct"]
    assert grade.explanations == ["Two pairs make four.", None, None, None]
    out = grade.to_output(answered_at="2026-01-01T00:00:00+00:00")
    assert QuizOutput.model_validate(out).correct == 4
    assert out["results"][0] | {} == {
        "index": 0, "kind": "single", "prompt": "2 + 2?", "verdict": "correct", "response": "4",
        "chosen": [1], "expected": ["4"], "explanation": "Two pairs make four.",
    }
    assert out["results"][3]["expected"] == ["0.75 ± 0.001"]
    assert out["plan_node"] == "B" and out["answered_at"].startswith("2026")


def test_misses() -> None:
    grade = grade_quiz("call_1", QUIZ, {"responses": [
        {"choices": displayed("call_1", 0, "22")},
        {"choices": displayed("call_1", 1, "2")},  # partly right is still a miss
        {"text": "Lyon"},
        {"number": 0.8},
    ]})
    assert grade.verdicts == ["miss", "miss", "miss", "miss"]
    assert grade.results[1].response == "2" and grade.results[1].expected == ("2", "3")


def test_dont_know_for_the_whole_quiz_and_per_question() -> None:
    assert grade_quiz("c", QUIZ, {"dont_know": True}).verdicts == ["dont-know"] * 4
    grade = grade_quiz("c", QUIZ, {"responses": [
        {"dont_know": True}, {"dont_know": True}, {"text": "Paris"}, {"dont_know": True}
    ]})
    assert grade.verdicts == ["dont-know", "dont-know", "correct", "dont-know"]
    assert grade.to_output()["dont_know"] is False


def test_the_choices_form_for_choice_only_quizzes() -> None:
    args = {"questions": QUIZ["questions"][:2]}
    answer = {"choices": [displayed("k", 0, "4"), displayed("k", 1, "2", "3")]}
    assert grade_quiz("k", args, answer).verdicts == ["correct", "correct"]


@pytest.mark.parametrize(
    ("typed", "verdict"),
    [("1,000", "correct"), ("1e3", "correct"), ("1000.0", "correct"), ("999.6", "correct"),
     ("1 000", "correct"), ("998", "miss"), ("２０００/２", "correct")],
)
def test_numeric_answers_with_tolerance(typed: str, verdict: str) -> None:
    args = {"questions": [{"prompt": "n?", "answer": 1000, "tolerance": 0.5}]}
    assert grade_quiz("c", args, {"responses": [{"text": typed}]}).verdicts == [verdict]


def test_exact_numeric_answers_have_no_float_noise() -> None:
    args = {"questions": [{"prompt": "0.1 + 0.2?", "answer": 0.3}]}
    assert grade_quiz("c", args, {"responses": [{"number": "0.30"}]}).verdicts == ["correct"]
    assert grade_quiz("c", args, {"responses": [{"number": 0.1 + 0.2}]}).verdicts == ["miss"]


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        ([0], 'the answer must be a JSON object'),
        ({}, "the answer must be exactly one of"),
        ({"choices": [], "dont_know": True}, "the answer must be exactly one of"),
        ({"dont_know": False}, '"dont_know" must be true'),
        ({"responses": [{"text": "x"}]}, '"responses" must be a list with one entry per question (4); got 1 entries'),
        ({"choices": "1"}, '"choices" must be a list with one entry per question (4); got no list'),
        ({"choices": [[0], [0], [0], [0]]}, "question 3 has no choices"),
        ({"responses": [{"choices": [9]}, {"choices": [0]}, {"text": "x"}, {"number": 1}]}, "question 1: index 9 is out of range; there are 4 choices (0–3)"),
        ({"responses": [{"choices": [0, 1]}, {"choices": [0]}, {"text": "x"}, {"number": 1}]}, "question 1: choose exactly one option (got 2)"),
        ({"responses": [{"choices": [0]}, {"choices": []}, {"text": "x"}, {"number": 1}]}, "question 2: select at least one option"),
        ({"responses": [{"choices": [0]}, {"choices": [1, 1]}, {"text": "x"}, {"number": 1}]}, "question 2: the same choice is selected twice"),
        ({"responses": [{"choices": ["0"]}, {"choices": [0]}, {"text": "x"}, {"number": 1}]}, "question 1: choices must be a list of displayed indices"),
        ({"responses": [{"choices": [True]}, {"choices": [0]}, {"text": "x"}, {"number": 1}]}, "question 1: choices must be a list of displayed indices"),
        ({"responses": [{"text": "4"}, {"choices": [0]}, {"text": "x"}, {"number": 1}]}, "question 1 is a choice question"),
        ({"responses": [{"choices": [0]}, {"choices": [0]}, {"text": "  "}, {"number": 1}]}, "question 3: type an answer"),
        ({"responses": [{"choices": [0]}, {"choices": [0]}, {"number": 3}, {"number": 1}]}, "question 3 expects text"),
        ({"responses": [{"choices": [0]}, {"choices": [0]}, {"text": "x"}, {"text": "lots"}]}, "question 4 expects a number such as 42, -3.5, 1,000, 1e3 or 3/4; got 'lots'"),
        ({"responses": [{"choices": [0]}, {"choices": [0]}, {"text": "x"}, {"number": None}]}, "question 4 expects a number"),
        ({"responses": [{"choices": [0]}, {"choices": [0]}, {"text": "x", "number": 1}, {"number": 1}]}, "question 3: answer with one of"),
        ({"responses": [{"choices": [0]}, {"choices": [0]}, {"text": "x" * 2001}, {"number": 1}]}, "question 3: the answer is 2001 characters"),
        ({"responses": [0, 1, 2, 3]}, "question 1: answer with one of"),
    ],
)
def test_bad_answers_are_clear_errors_never_crashes(answer: Any, problem: str) -> None:
    with pytest.raises(InvalidAnswer) as caught:
        grade_quiz("call_1", QUIZ, answer)
    assert isinstance(caught.value, InvalidInput)  # the HTTP layer answers 400
    assert any(problem in e for e in caught.value.errors), caught.value.errors


def test_every_bad_entry_is_reported_together() -> None:
    with pytest.raises(InvalidAnswer) as caught:
        grade_quiz("c", QUIZ, {"responses": [{"choices": [7]}, {"choices": []}, {"text": ""}, {"text": "?"}]})
    assert len(caught.value.errors) == 4


def test_a_malformed_recorded_quiz_cannot_be_graded() -> None:
    with pytest.raises(InvalidQuiz) as caught:
        grade_quiz("c", {"questions": [{"prompt": "x"}]}, {"dont_know": True})
    assert "Write a message to skip it" in str(caught.value)


# --- properties: shuffling and grading through it ----------------------------------------

tool_call_ids = st.text(min_size=1, max_size=40)


@settings(max_examples=300, deadline=None)
@given(tool_call_ids, st.integers(0, 9), st.integers(0, 12))
def test_shuffling_is_a_stable_permutation(tool_call_id: str, q: int, n: int) -> None:
    order = choice_order(tool_call_id, q, n)
    assert sorted(order) == list(range(n))
    assert choice_order(tool_call_id, q, n) == order


def test_shuffling_is_pinned_across_versions_and_processes() -> None:
    # Stable across restarts: a change here would reshuffle every pending quiz on disk.
    assert choice_order("call_abc", 0, 5) == [1, 2, 3, 0, 4]
    assert choice_order("call_abc", 1, 5) == [3, 1, 0, 2, 4]
    code = "from studyhall.core.classroom.shuffle import choice_order as c; print(c('call_abc', 0, 5))"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == "[1, 2, 3, 0, 4]"


def test_shuffling_actually_moves_choices() -> None:
    orders = {tuple(choice_order(f"call_{i}", 0, 4)) for i in range(200)}
    assert len(orders) == 24  # every permutation of 4 shows up


@st.composite
def choice_quizzes(draw: st.DrawFn) -> tuple[str, dict[str, Any], list[set[int]]]:
    tool_call_id = draw(tool_call_ids)
    questions, picks = [], []
    for _ in range(draw(st.integers(1, 4))):
        n = draw(st.integers(2, 10))
        multiple = draw(st.booleans())
        correct = sorted(draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=n if multiple else 1)))
        questions.append({"prompt": "?", "choices": [f"choice {i}" for i in range(n)],
                          "correct": correct, "kind": "multiple" if multiple else "single"})
        size = draw(st.integers(1, n if multiple else 1))
        picks.append(draw(st.sets(st.integers(0, n - 1), min_size=size, max_size=size)))
    return tool_call_id, {"questions": questions}, picks


@settings(max_examples=300, deadline=None)
@given(choice_quizzes())
def test_grading_through_a_shuffle_is_correct(case: tuple[str, dict[str, Any], list[set[int]]]) -> None:
    tool_call_id, args, picks = case
    shown = present_quiz(tool_call_id, args)["questions"]
    # The learner clicks the displayed positions of the texts of their (original) picks.
    clicks = [[q["choices"].index(f"choice {i}") for i in sorted(p)] for q, p in zip(shown, picks)]
    grade = grade_quiz(tool_call_id, args, {"choices": clicks})
    for question, pick, result in zip(args["questions"], picks, grade.results):
        expected = "correct" if pick == set(question["correct"]) else "miss"
        assert result.verdict == expected
        assert result.chosen == tuple(sorted(pick))
    # Clicking exactly the correct texts is always right, wherever they were displayed.
    right = [[q["choices"].index(f"choice {i}") for i in a["correct"]]
             for q, a in zip(shown, args["questions"])]
    assert grade_quiz(tool_call_id, args, {"choices": right}).verdicts == ["correct"] * len(shown)


# --- open questions (ask_user_question) ----------------------------------------------------


def test_ask_with_options_and_free_text() -> None:
    args = {"question": "Your level?", "options": ["new", "some", "lots"], "allow_free_text": True}
    assert validate_ask(args) == []
    assert present_ask(args) == {"question": "Your level?", "options": ["new", "some", "lots"],
                                 "free_text": True, "dont_know": True}
    assert answer_ask(args, {"option": 2}) == {"status": "answered", "text": "lots", "option": 2,
                                               "dont_know": False}
    assert answer_ask(args, {"text": " a bit "})["text"] == "a bit"
    assert answer_ask(args, {"dont_know": True})["dont_know"] is True


@pytest.mark.parametrize(
    ("args", "answer", "problem"),
    [
        ({"question": "Goal?"}, {"option": 0}, "this question has no options"),
        ({"question": "Goal?"}, {"text": ""}, "type an answer"),
        ({"question": "Goal?"}, {"text": "x", "option": 1}, "answer with exactly one of"),
        ({"question": "L?", "options": ["a", "b"]}, {"text": "c"}, "takes one of its options"),
        ({"question": "L?", "options": ["a", "b"]}, {"option": 2}, "option must be an index from 0 to 1"),
        ({"question": "L?", "options": ["a", "b"]}, {"option": True}, "option must be an index"),
        ({"question": "L?", "options": ["a", "b"]}, "a", "answer with exactly one of"),
    ],
)
def test_ask_bad_answers(args: dict[str, Any], answer: Any, problem: str) -> None:
    with pytest.raises(InvalidAnswer) as caught:
        answer_ask(args, answer)
    assert problem in str(caught.value)


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        ([], "the arguments must be a JSON object"),
        ({"question": " "}, "question must be a non-empty string"),
        ({"question": "q", "options": ["a", "A"]}, "options contains the same option twice"),
        ({"question": "q", "options": [str(i) for i in range(9)]}, "options has 9 entries"),
        ({"question": "q", "allow_free_text": False}, "with no options, allow_free_text cannot be false"),
        ({"question": "q", "allow_free_text": "yes"}, "allow_free_text must be true or false"),
        ({"question": "q", "extra": 1}, "unknown argument(s): extra"),
    ],
)
def test_ask_validation(args: Any, problem: str) -> None:
    assert any(problem in p for p in validate_ask(args))
