"""This session's graded quiz answers, read from the transcript: what each question asked about
(the quiz's ``plan_node`` / ``node_id``), how hard it was said to be, and the verdict.

The graph learns of an answer only after extraction links it to a node; the prerequisite gate
reads these so an answer given a minute ago already counts. Refs are ``<tool_call_id>/q<n>``
(``n`` 1-based), the form the graph's quiz events are referred to by, so an answer the graph
already holds is recognised and counted once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from pydantic import ValidationError
from studyhall.core.contracts.chat import Message, ToolCallPart
from studyhall.core.contracts.graph import QuizDifficulty, QuizVerdict
from studyhall.core.contracts.quiz import QuizOutput

_DIFFICULTIES = ("easy", "medium", "hard")


@dataclass(frozen=True)
class SessionAnswer:
    ref: str  # "<tool_call_id>/q<n>", n 1-based
    verdict: QuizVerdict
    at: datetime
    difficulty: QuizDifficulty | None
    plan_node: str | None  # the plan step the quiz was tagged with
    node_id: str | None  # the graph node the quiz named
    chosen: tuple[str, ...] = ()  # what was picked (choice texts) or typed; () for "I don't know"
    expected: tuple[str, ...] = ()  # the right answer(s), readable


def answer_ref(tool_call_id: str, index: int) -> str:
    return f"{tool_call_id}/q{index + 1}"


def session_answers(messages: Sequence[Message]) -> list[SessionAnswer]:
    """Every graded quiz answer of the transcript, oldest first."""
    out: list[SessionAnswer] = []
    for message in messages:
        for part in message.parts:
            if isinstance(part, ToolCallPart) and part.name == "quiz":
                out.extend(_answers(part, message.created_at))
    return out


def _answers(part: ToolCallPart, default_at: datetime) -> list[SessionAnswer]:
    if part.state != "output-available" or not isinstance(part.output, dict):
        return []
    try:
        output = QuizOutput.model_validate(part.output)
    except ValidationError:
        return []  # a shape we cannot trust counts for nothing (never guessed)
    at = _answered_at(output.answered_at, default_at)
    questions = part.input.get("questions")
    questions = questions if isinstance(questions, list) else []
    plan_node = _text(part.input.get("plan_node"))
    node_id = _text(part.input.get("node_id"))
    out = []
    for result in output.results:
        asked = questions[result.index] if result.index < len(questions) else {}
        difficulty = asked.get("difficulty") if isinstance(asked, dict) else None
        out.append(SessionAnswer(
            answer_ref(part.tool_call_id, result.index), result.verdict, at,
            difficulty if difficulty in _DIFFICULTIES else None, plan_node, node_id,
            _picked(asked, result.chosen, result.response), result.expected))
    return out


def _picked(asked: object, chosen: tuple[int, ...] | None, response: str | None
            ) -> tuple[str, ...]:
    """The picked choices' texts (a choice question), else the typed answer."""
    choices = asked.get("choices") if isinstance(asked, dict) else None
    if chosen is not None:
        if not isinstance(choices, list):
            return ()
        return tuple(c for i in chosen if 0 <= i < len(choices)
                     and isinstance(c := choices[i], str))
    return (response,) if response else ()


def _text(value: object) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def _answered_at(value: str | None, default: datetime) -> datetime:
    if value is None:
        return default
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return default
    return parsed if parsed.tzinfo is not None else default
