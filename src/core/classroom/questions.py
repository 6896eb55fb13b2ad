"""Questions the learner answers: quizzes (graded) and open questions (``ask_user_question``).

The public face of the classroom's question logic; see ``quiz_read`` (arguments), ``shuffle``
(display order), ``grading`` (verdicts) and ``ask`` (open questions). A pending question — a
tool call with no answer yet — is exactly what lets a session resume mid-question: the UI
renders ``present_quiz`` again from the record, in the same order.
"""

from __future__ import annotations

from typing import Any

from studyhall.core.classroom.ask import answer_ask, grade_ask, present_ask, validate_ask
from studyhall.core.classroom.grading import QuizGrade, grade_quiz
from studyhall.core.classroom.quiz_read import Question, read_quiz, validate_quiz
from studyhall.core.classroom.shuffle import choice_order

__all__ = [
    "QuizGrade",
    "answer_ask",
    "choice_order",
    "grade_ask",
    "grade_quiz",
    "present_ask",
    "present_quiz",
    "validate_ask",
    "validate_quiz",
]


def present_quiz(tool_call_id: str, args: Any) -> dict[str, Any]:
    """What the UI renders: prompts and shuffled choices, never the answers or explanations.

    Never raises: a malformed quiz in the record comes back with no questions and its
    ``errors``, so one bad part cannot break the whole transcript view.
    """
    questions, errors = read_quiz(args)
    if errors:
        return {"questions": [], "errors": errors, "plan_node": None, "dont_know": True}
    node = args.get("plan_node")
    return {
        "questions": [_present(tool_call_id, q) for q in questions],
        "plan_node": node if isinstance(node, str) else None,
        "dont_know": True,  # every question offers "I don't know"
    }


def _present(tool_call_id: str, q: Question) -> dict[str, Any]:
    shown: dict[str, Any] = {"index": q.index, "kind": q.kind, "prompt": q.prompt}
    if q.kind in ("single", "multiple"):
        order = choice_order(tool_call_id, q.index, len(q.choices))
        shown["choices"] = [q.choices[i] for i in order]
        shown["select"] = "one" if q.kind == "single" else "many"
    else:
        shown["input"] = "number" if q.kind == "numeric" else "text"
    return shown
