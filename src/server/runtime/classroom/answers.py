"""A learner's answer to a pending client tool -> the output stored in its tool part.

Quizzes and open questions are graded by the classroom core; a plan approval is recorded as
given: the answer itself becomes the output (``{"approve": true}`` or ``{"approve": false,
"comment"}``), which is what the core reads to find the approved plan. A malformed answer is ``InvalidInput`` (HTTP 400) and nothing is written.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from studyhall.core.classroom.questions import answer_ask, grade_quiz
from studyhall.core.contracts.chat import ToolCallPart
from studyhall.core.errors import InvalidInput, StudyhallError

MAX_COMMENT = 4000


def answer_output(part: ToolCallPart, answer: Any, at: datetime) -> Any:
    if not isinstance(answer, dict):
        raise InvalidInput('"answer" must be a JSON object, e.g. {"choices": [[0]]}.')
    try:
        if part.name == "quiz":
            return grade_quiz(part.tool_call_id, part.input, answer).to_output(at.isoformat())
        if part.name == "ask_user_question":
            return answer_ask(part.input, answer)
        if part.name == "plan_init":
            return plan_approval(answer)
    except StudyhallError:
        raise
    except (ValueError, TypeError, KeyError, IndexError) as e:
        raise InvalidInput(f"That answer does not fit this {part.name}: {e}") from e
    raise InvalidInput(f"{part.name} is not something the learner answers.")


def plan_approval(answer: dict[str, Any]) -> dict[str, Any]:
    approve = answer.get("approve")
    if not isinstance(approve, bool):
        raise InvalidInput('A plan answer is {"approve": true} or {"approve": false, "comment": "..."}.')
    if approve:
        return {"approve": True}
    comment = answer.get("comment")
    if not isinstance(comment, str) or not comment.strip():
        raise InvalidInput("Say what should change in the plan (a comment is needed).")
    if len(comment) > MAX_COMMENT:
        raise InvalidInput(f"The comment is {len(comment)} characters; the limit is {MAX_COMMENT}.")
    return {"approve": False, "comment": comment.strip()}
