"""Tool parts as the extractor sees them, and the graded quiz results the merger trusts.

The division of trust: the extractor only judges *which proposition a question tested* (it
cites the question ref shown here); the verdict, time and refs of every quiz event come from
the graded tool part itself. Plan trees and job tools are not rendered (tree-blind).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import ValidationError
from studyhall.core.contracts.chat import ToolCallPart
from studyhall.core.contracts.graph import QuizDifficulty, QuizVerdict
from studyhall.core.contracts.quiz import QuizOutput


@dataclass(frozen=True)
class QuizResult:
    """One graded quiz question, straight from the transcript."""

    ref: str  # f"{tool_call_id}/q{n}", n 1-based: what the extractor cites
    tool_call_id: str
    question_index: int  # 0-based
    verdict: QuizVerdict
    at: datetime
    difficulty: QuizDifficulty | None = None  # as the quiz's question gave it


@dataclass(frozen=True)
class RenderedPart:
    lines: list[str] = field(default_factory=list)
    quizzes: list[QuizResult] = field(default_factory=list)


def question_ref(tool_call_id: str, index: int) -> str:
    return f"{tool_call_id}/q{index + 1}"


def _one_line(value: Any) -> str:
    return " ".join(str(value).split())


def _as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _answered_at(output: QuizOutput, default: datetime) -> datetime:
    if output.answered_at is None:
        return default
    try:
        parsed = datetime.fromisoformat(output.answered_at)
    except ValueError:
        return default
    return parsed if parsed.tzinfo else default


def _graded(part: ToolCallPart) -> QuizOutput | None:
    """The graded output (the ``QuizOutput`` contract), or None: pending, interrupted, or a
    shape we cannot trust — then no quiz event is built from it (never guessed)."""
    if part.state != "output-available" or not isinstance(part.output, dict):
        return None
    try:
        return QuizOutput.model_validate(part.output)
    except ValidationError:
        return None


def _difficulty(value: Any) -> QuizDifficulty | None:
    return value if value in ("easy", "medium", "hard") else None


_WORDS = {"correct": "correct", "miss": "missed", "dont-know": "said they don't know"}


def _render_quiz(part: ToolCallPart, default_at: datetime) -> RenderedPart:
    questions = [_as_dict(q) for q in _as_list(part.input.get("questions"))]
    output = _graded(part)
    results = {r.index: r for r in output.results} if output is not None else {}
    at = _answered_at(output, default_at) if output is not None else default_at
    rendered = RenderedPart()
    for index, question in enumerate(questions):
        ref = question_ref(part.tool_call_id, index)
        rendered.lines.append(f"Quiz question {ref}: {_one_line(question.get('prompt', ''))}")
        choices = [_one_line(c) for c in _as_list(question.get("choices"))]
        if choices:
            rendered.lines.append("  choices: " + " | ".join(choices))
        result = results.get(index)
        expected = list(result.expected) if result is not None else [
            choices[i] for i in _as_list(question.get("correct"))
            if isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(choices)]
        if expected:
            rendered.lines.append("  correct answer: " + " | ".join(map(_one_line, expected)))
        if result is None:
            rendered.lines.append("  learner: not answered yet")
            continue
        detail = f" (answered: {_one_line(result.response)})" if result.response else ""
        rendered.lines.append(f"  learner: {_WORDS[result.verdict]}{detail}")
        rendered.quizzes.append(QuizResult(ref, part.tool_call_id, index, result.verdict, at,
                                           _difficulty(question.get("difficulty"))))
    return rendered


def _render_ask(part: ToolCallPart) -> RenderedPart:
    lines = [f"Question to the learner: {_one_line(part.input.get('question', ''))}"]
    options = [_one_line(o) for o in _as_list(part.input.get("options"))]
    if options:
        lines.append("  options: " + " | ".join(options))
    if part.state == "output-available":
        output = part.output
        answer: Any = None
        if isinstance(output, str):
            answer = output
        elif isinstance(output, dict):
            answer = output.get("text") or output.get("answer")
            option = output.get("option")
            if answer is None and isinstance(option, int) and 0 <= option < len(options):
                answer = options[option]
        if answer not in (None, ""):
            lines.append(f"  learner answered: {_one_line(answer)}")
    return RenderedPart(lines=lines)


def render_tool_part(part: ToolCallPart, default_at: datetime) -> RenderedPart:
    """Lines for the tool parts the extractor may learn from; nothing for the rest.

    ``default_at`` (the message's time) dates quiz events whose output carries no time."""
    if part.name == "quiz":
        return _render_quiz(part, default_at)
    if part.name == "ask_user_question":
        return _render_ask(part)
    return RenderedPart()
