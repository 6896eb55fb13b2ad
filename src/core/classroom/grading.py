"""Grading a learner's answer to a quiz: one verdict per question — ``correct``, ``miss`` or
``dont-know`` — with the explanation.

Answers (choice indices are positions as DISPLAYED, mapped back through ``choice_order``):
- ``{"dont_know": true}`` — the whole quiz;
- ``{"choices": [[int, ...], ...]}`` — one list per question (choice questions only);
- ``{"responses": [{"choices": [...]} | {"text": "..."} | {"number": x} | {"dont_know": true},
  ...]}`` — one entry per question, any kind.
Single choice needs exactly one index; multiple choice is correct only when the selection is
exactly the set of correct choices. An answer that does not fit (wrong count, index out of
range, wrong type) raises ``InvalidAnswer`` naming every problem; nothing is graded.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from studyhall.core.classroom.answer_text import normalize_text, number_from_json, show_number
from studyhall.core.classroom.quiz_read import Question, read_quiz
from studyhall.core.classroom.shuffle import choice_order
from studyhall.core.contracts.graph import QuizVerdict
from studyhall.core.contracts.quiz import QuestionResult, QuizOutput
from studyhall.core.errors import InvalidAnswer, InvalidQuiz

MAX_TEXT_ANSWER = 2000
_RESPONSE_KEYS = ("choices", "text", "number", "dont_know")


@dataclass(frozen=True)
class _Response:
    dont_know: bool = False
    chosen: tuple[int, ...] | None = None  # original indices
    text: str | None = None
    number: Fraction | None = None


@dataclass(frozen=True)
class QuizGrade:
    results: tuple[QuestionResult, ...]
    dont_know: bool
    plan_node: str | None

    @property
    def verdicts(self) -> list[QuizVerdict]:
        return [r.verdict for r in self.results]

    @property
    def explanations(self) -> list[str | None]:
        return [r.explanation for r in self.results]

    def to_output(self, answered_at: str | None = None) -> dict[str, Any]:
        """The dict stored as the tool part's output and sent to the model."""
        output = QuizOutput(
            dont_know=self.dont_know,
            correct=sum(1 for r in self.results if r.verdict == "correct"),
            total=len(self.results),
            results=self.results,
            plan_node=self.plan_node,
            answered_at=answered_at,
        )
        return output.model_dump(mode="json")


def grade_quiz(tool_call_id: str, args: Any, answer: Any) -> QuizGrade:
    questions, problems = read_quiz(args)
    if problems:
        raise InvalidQuiz(problems)
    whole_dont_know, responses = _read_answer(tool_call_id, questions, answer)
    node = args.get("plan_node")
    return QuizGrade(
        results=tuple(_grade(q, r) for q, r in zip(questions, responses)),
        dont_know=whole_dont_know,
        plan_node=node if isinstance(node, str) else None,
    )


def _read_answer(
    tool_call_id: str, questions: list[Question], answer: Any
) -> tuple[bool, list[_Response]]:
    shapes = '{"choices": [[0], ...]}, {"responses": [...]} or {"dont_know": true}'
    if not isinstance(answer, dict):
        raise InvalidAnswer([f"the answer must be a JSON object: {shapes}"])
    keys = [k for k in ("choices", "responses", "dont_know") if k in answer]
    unknown = sorted(set(answer) - {"choices", "responses", "dont_know"})
    if len(keys) != 1 or unknown:
        raise InvalidAnswer([f"the answer must be exactly one of {shapes}"])
    key = keys[0]
    if key == "dont_know":
        if answer["dont_know"] is not True:
            raise InvalidAnswer(['"dont_know" must be true'])
        return True, [_Response(dont_know=True) for _ in questions]
    entries = answer[key]
    n = len(questions)
    if not isinstance(entries, list) or len(entries) != n:
        got = f"{len(entries)} entries" if isinstance(entries, list) else "no list"
        raise InvalidAnswer(
            [f'"{key}" must be a list with one entry per question ({n}); got {got}']
        )
    errors: list[str] = []
    responses = []
    for q, entry in zip(questions, entries):
        if key == "choices":
            entry = {"choices": entry}
        responses.append(_response(tool_call_id, q, entry, errors))
    if errors:
        raise InvalidAnswer(errors)
    return False, responses


def _response(tool_call_id: str, q: Question, entry: Any, errors: list[str]) -> _Response:
    at = f"question {q.index + 1}"
    if (
        not isinstance(entry, dict)
        or len([k for k in _RESPONSE_KEYS if k in entry]) != 1
        or set(entry) - set(_RESPONSE_KEYS)
    ):
        errors.append(
            f'{at}: answer with one of {{"choices": [...]}}, {{"text": "..."}}, '
            '{"number": ...} or {"dont_know": true}'
        )
        return _Response()
    if "dont_know" in entry:
        if entry["dont_know"] is not True:
            errors.append(f'{at}: "dont_know" must be true')
        return _Response(dont_know=True)
    if "choices" in entry:
        return _choices(tool_call_id, q, entry["choices"], at, errors)
    if q.kind in ("single", "multiple"):
        errors.append(f"{at} is a choice question: answer with the displayed indices you chose")
        return _Response()
    if "number" in entry:
        if q.kind != "numeric":
            errors.append(f'{at} expects text: answer with {{"text": "..."}}')
            return _Response()
        return _number(entry["number"], at, errors)
    text = entry["text"]
    if not isinstance(text, str) or not text.strip():
        errors.append(f'{at}: type an answer, or choose "I don\'t know"')
        return _Response()
    if len(text) > MAX_TEXT_ANSWER:
        errors.append(f"{at}: the answer is {len(text)} characters; the limit is {MAX_TEXT_ANSWER}")
        return _Response()
    if q.kind == "numeric":
        return _number(text, at, errors)
    return _Response(text=text.strip())


def _number(value: Any, at: str, errors: list[str]) -> _Response:
    number = number_from_json(value)
    if number is None:
        errors.append(f"{at} expects a number such as 42, -3.5, 1,000, 1e3 or 3/4; got {value!r}")
        return _Response()
    return _Response(number=number, text=value.strip() if isinstance(value, str) else None)


def _choices(tool_call_id: str, q: Question, picked: Any, at: str, errors: list[str]) -> _Response:
    if q.kind not in ("single", "multiple"):
        errors.append(f'{at} has no choices: answer with {{"text": "..."}}')
        return _Response()
    n = len(q.choices)
    if not isinstance(picked, list) or not all(
        isinstance(i, int) and not isinstance(i, bool) for i in picked
    ):
        errors.append(f"{at}: choices must be a list of displayed indices (integers)")
        return _Response()
    bad = [i for i in picked if not 0 <= i < n]
    if bad:
        errors.append(f"{at}: index {bad[0]} is out of range; there are {n} choices (0–{n - 1})")
        return _Response()
    if len(set(picked)) != len(picked):
        errors.append(f"{at}: the same choice is selected twice")
        return _Response()
    if q.kind == "single" and len(picked) != 1:
        errors.append(f"{at}: choose exactly one option (got {len(picked)})")
        return _Response()
    if not picked:
        errors.append(f'{at}: select at least one option, or choose "I don\'t know"')
        return _Response()
    order = choice_order(tool_call_id, q.index, n)
    return _Response(chosen=tuple(sorted(order[i] for i in picked)))


def _grade(q: Question, r: _Response) -> QuestionResult:
    verdict: QuizVerdict
    response: str | None = None
    if r.dont_know:
        verdict = "dont-know"
    elif r.chosen is not None:
        verdict = "correct" if set(r.chosen) == q.correct else "miss"
        response = " | ".join(q.choices[i] for i in r.chosen)
    elif r.number is not None:
        assert q.number is not None
        verdict = "correct" if abs(r.number - q.number) <= q.tolerance else "miss"
        response = r.text or show_number(r.number)
    else:
        assert r.text is not None
        accepted = {normalize_text(a) for a in q.accepted}
        verdict = "correct" if normalize_text(r.text) in accepted else "miss"
        response = r.text
    return QuestionResult(
        index=q.index,
        kind=q.kind,
        prompt=q.prompt,
        verdict=verdict,
        response=response,
        chosen=r.chosen,
        expected=q.expected(),
        explanation=q.explanation,
    )
