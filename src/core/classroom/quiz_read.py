"""Quiz arguments (as a model writes them) -> checked questions, or every problem at once.

Arguments: ``{"questions": [{"prompt", "choices"?, "correct"?, "kind"?, "answer"?,
"tolerance"?, "explanation"?, "difficulty"?}], "plan_node"?, "node_id"?}``. Without ``kind``: choices make it ``single``
(one correct index) or ``multiple`` (several); a number answer makes it ``numeric``; a text
answer (or a list of accepted texts) makes it ``short``. Problems are phrased for the model
with a JSON path (``questions[1].correct[0]: …``), indices 0-based like its own.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, get_args

from studyhall.core.classroom.answer_text import choice_key, number_from_json, show_number
from studyhall.core.contracts.graph import QuizDifficulty
from studyhall.core.contracts.quiz import QuestionKind

MAX_QUESTIONS = 10
MAX_CHOICES = 10
MAX_ACCEPTED = 20
MAX_PROMPT = 2000
MAX_CHOICE = 500
MAX_EXPLANATION = 4000
_KINDS: tuple[QuestionKind, ...] = get_args(QuestionKind)
DIFFICULTIES: tuple[QuizDifficulty, ...] = get_args(QuizDifficulty)
_QUIZ_KEYS = {"questions", "plan_node", "node_id"}
_QUESTION_KEYS = {"prompt", "kind", "choices", "correct", "answer", "tolerance", "explanation",
                  "difficulty"}


@dataclass(frozen=True)
class Question:
    index: int
    kind: QuestionKind
    prompt: str
    explanation: str | None
    choices: tuple[str, ...] = ()
    correct: frozenset[int] = frozenset()
    accepted: tuple[str, ...] = ()  # short: accepted texts as written
    number: Fraction | None = None  # numeric
    tolerance: Fraction = Fraction(0)
    difficulty: QuizDifficulty | None = None  # None: not given (read as medium)

    def expected(self) -> tuple[str, ...]:
        """The right answer(s), readable."""
        if self.kind in ("single", "multiple"):
            return tuple(self.choices[i] for i in sorted(self.correct))
        if self.kind == "short":
            return self.accepted
        assert self.number is not None
        shown = show_number(self.number)
        return (f"{shown} ± {show_number(self.tolerance)}" if self.tolerance else shown,)


def read_quiz(args: Any) -> tuple[list[Question], list[str]]:
    if not isinstance(args, dict):
        return [], ['the quiz arguments must be a JSON object: {"questions": [...]}']
    errors: list[str] = []
    unknown = sorted(set(args) - _QUIZ_KEYS)
    if unknown:
        errors.append(
            f"unknown field(s) {', '.join(unknown)}; a quiz has 'questions' and "
            "optionally 'plan_node' and 'node_id'"
        )
    node = args.get("plan_node")
    if node is not None and (not isinstance(node, str) or not node.strip()):
        errors.append("plan_node must be the id of a plan node (a non-empty string)")
    target = args.get("node_id")
    if target is not None and (not isinstance(target, str) or not target.strip()):
        errors.append("node_id must be the id of a knowledge-graph node (a non-empty string)")
    raw = args.get("questions")
    if not isinstance(raw, list) or not raw:
        errors.append("questions must be a non-empty list of question objects")
        return [], errors
    if len(raw) > MAX_QUESTIONS:
        errors.append(f"questions has {len(raw)} entries; a quiz has at most {MAX_QUESTIONS}")
        return [], errors
    questions = []
    for i, q in enumerate(raw):
        question = _question(i, q, errors)
        if question is not None:
            questions.append(question)
    return (questions if not errors else []), errors


def validate_quiz(args: Any) -> list[str]:
    """Every problem with these quiz arguments (empty when the quiz can be shown)."""
    return read_quiz(args)[1]


def _text(value: Any, path: str, limit: int, errors: list[str], *, required: bool) -> str | None:
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        errors.append(f"{path} must be a non-empty string")
        return None
    if len(value) > limit:
        errors.append(f"{path} is {len(value)} characters; the limit is {limit}")
        return None
    return value.strip()


def _question(i: int, q: Any, errors: list[str]) -> Question | None:
    at = f"questions[{i}]"
    if not isinstance(q, dict):
        errors.append(f"{at} must be an object with a 'prompt'")
        return None
    before = len(errors)
    unknown = sorted(set(q) - _QUESTION_KEYS)
    if unknown:
        errors.append(
            f"{at}: unknown field(s) {', '.join(unknown)}; allowed: "
            f"{', '.join(sorted(_QUESTION_KEYS))}"
        )
    prompt = _text(q.get("prompt"), f"{at}.prompt", MAX_PROMPT, errors, required=True)
    explanation = _text(
        q.get("explanation"), f"{at}.explanation", MAX_EXPLANATION, errors, required=False
    )
    difficulty = q.get("difficulty")
    if difficulty is not None and difficulty not in DIFFICULTIES:
        errors.append(f"{at}.difficulty must be one of {', '.join(DIFFICULTIES)}, "
                      f"not {difficulty!r}")
        difficulty = None
    kind = q.get("kind")
    if kind is None:
        kind = _infer_kind(q)
    elif kind not in _KINDS:
        errors.append(f"{at}.kind must be one of {', '.join(_KINDS)}, not {kind!r}")
        return None
    base = Question(i, kind, prompt or "", explanation)
    if kind in ("single", "multiple"):
        question = _choice_question(base, q, at, errors)
    elif kind == "short":
        question = _short_question(base, q, at, errors)
    else:
        question = _numeric_question(base, q, at, errors)
    if question is not None and difficulty is not None:
        question = replace(question, difficulty=difficulty)
    return question if len(errors) == before else None


def _infer_kind(q: dict[str, Any]) -> QuestionKind:
    if "choices" in q or "correct" in q:
        correct = q.get("correct")
        return "multiple" if isinstance(correct, list) and len(correct) > 1 else "single"
    answer = q.get("answer")
    if isinstance(answer, (int, float)) and not isinstance(answer, bool):
        return "numeric"
    return "short"


def _forbid(
    q: dict[str, Any], keys: tuple[str, ...], at: str, kind: str, use: str, errors: list[str]
) -> None:
    for key in keys:
        if key in q:
            errors.append(f"{at}.{key} does not apply to a {kind} question; it uses {use}")


def _choice_question(base: Question, q: dict[str, Any], at: str, errors: list[str]) -> Question:
    _forbid(q, ("answer", "tolerance"), at, base.kind, "'choices' and 'correct'", errors)
    choices = q.get("choices")
    texts: list[str] = []
    if not isinstance(choices, list) or not 2 <= len(choices) <= MAX_CHOICES:
        errors.append(f"{at}.choices must be a list of 2 to {MAX_CHOICES} options")
    else:
        for j, c in enumerate(choices):
            text = _text(c, f"{at}.choices[{j}]", MAX_CHOICE, errors, required=True)
            if text is not None:
                texts.append(text)
        if len({choice_key(t) for t in texts}) != len(texts):
            errors.append(f"{at}.choices has the same option twice; make every option distinct")
    n = len(texts)
    correct = q.get("correct")
    picked: set[int] = set()
    if not isinstance(correct, list) or not correct:
        errors.append(f"{at}.correct must list the 0-based index of every correct choice, e.g. [1]")
    else:
        for j, c in enumerate(correct):
            if not isinstance(c, int) or isinstance(c, bool):
                errors.append(f"{at}.correct[{j}] must be an integer index, not {c!r}")
            elif n and not 0 <= c < n:
                errors.append(
                    f"{at}.correct[{j}]: index {c} is out of range; there are {n} "
                    f"choices (0–{n - 1})"
                )
            elif c in picked:
                errors.append(f"{at}.correct lists index {c} twice")
            else:
                picked.add(c)
        if base.kind == "single" and len(correct) != 1:
            errors.append(
                f"{at} is single-choice, so correct must hold exactly one index; use "
                "kind 'multiple' for select-all-that-apply"
            )
    return Question(
        base.index,
        base.kind,
        base.prompt,
        base.explanation,
        choices=tuple(texts),
        correct=frozenset(picked),
    )


def _short_question(base: Question, q: dict[str, Any], at: str, errors: list[str]) -> Question:
    _forbid(q, ("choices", "correct", "tolerance"), at, "short", "'answer'", errors)
    answer = q.get("answer")
    raw = answer if isinstance(answer, list) else [answer]
    if answer is None or not raw or len(raw) > MAX_ACCEPTED:
        errors.append(
            f"{at}.answer must be the accepted text, or a list of 1 to {MAX_ACCEPTED} "
            "accepted texts"
        )
        return base
    accepted = []
    for j, a in enumerate(raw):
        path = f"{at}.answer[{j}]" if isinstance(answer, list) else f"{at}.answer"
        text = _text(a, path, MAX_CHOICE, errors, required=True)
        if text is not None:
            accepted.append(text)
    return Question(base.index, "short", base.prompt, base.explanation, accepted=tuple(accepted))


def _numeric_question(base: Question, q: dict[str, Any], at: str, errors: list[str]) -> Question:
    _forbid(q, ("choices", "correct"), at, "numeric", "'answer' and 'tolerance'", errors)
    number = number_from_json(q.get("answer"))
    if number is None:
        errors.append(f'{at}.answer must be a number (e.g. 42, 0.75 or "3/4")')
    tolerance = Fraction(0)
    if q.get("tolerance") is not None:
        tol = number_from_json(q.get("tolerance"))
        if tol is None or tol < 0 or isinstance(q.get("tolerance"), str):
            errors.append(f"{at}.tolerance must be a number ≥ 0 (the allowed absolute error)")
        else:
            tolerance = tol
    return Question(
        base.index, "numeric", base.prompt, base.explanation, number=number, tolerance=tolerance
    )
