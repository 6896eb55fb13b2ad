"""Tool parts as the extractor sees them, and the graded quiz results the merger trusts.

The division of trust: the extractor only judges *which proposition a question tested* (it
cites the question ref shown here); the verdict, time and refs of every quiz event come from
the graded tool part itself. Plan trees and job tools are not rendered (tree-blind).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..contracts.chat import ToolCallPart
from ..contracts.graph import QuizVerdict

_VERDICTS: dict[str, QuizVerdict] = {
    "correct": "correct",
    "miss": "miss",
    "dont-know": "dont-know",
    "dont_know": "dont-know",
}


@dataclass(frozen=True)
class QuizResult:
    """One graded quiz question, straight from the transcript."""

    ref: str  # f"{tool_call_id}/q{n}", n 1-based: what the extractor cites
    tool_call_id: str
    question_index: int  # 0-based
    verdict: QuizVerdict
    at: datetime


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


def _answered_at(output: dict[str, Any], default: datetime) -> datetime:
    raw = output.get("answered_at")
    if isinstance(raw, str):
        try:
            parsed = datetime.fromisoformat(raw)
        except ValueError:
            return default
        return parsed if parsed.tzinfo else default
    return default


def _question_outcomes(output: dict[str, Any], count: int) -> list[dict[str, Any]]:
    """Per-question outcome dicts ({"verdict", "chosen"?...}) from a graded output, tolerant of
    the two shapes a grader may store: parallel lists or a list of per-question results."""
    results = _as_list(output.get("results")) or _as_list(output.get("questions"))
    if results:
        return [_as_dict(r) for r in results[:count]]
    verdicts = _as_list(output.get("verdicts"))
    if not verdicts and output.get("dont_know") is True:
        verdicts = ["dont-know"] * count
    return [{"verdict": v} for v in verdicts[:count]]


def _verdict_line(outcome: dict[str, Any]) -> tuple[str, QuizVerdict | None]:
    verdict = _VERDICTS.get(str(outcome.get("verdict", "")))
    if verdict is None:
        return "  learner: not answered yet", None
    chosen = outcome.get("chosen_text") or outcome.get("response")
    detail = f" (answered: {_one_line(chosen)})" if chosen not in (None, "", []) else ""
    words = {"correct": "correct", "miss": "missed", "dont-know": "said they don't know"}
    return f"  learner: {words[verdict]}{detail}", verdict


def _render_quiz(part: ToolCallPart, default_at: datetime) -> RenderedPart:
    questions = [_as_dict(q) for q in _as_list(part.input.get("questions"))]
    graded = part.state == "output-available"
    output = _as_dict(part.output) if graded else {}
    outcomes = _question_outcomes(output, len(questions)) if graded else []
    at = _answered_at(output, default_at)
    rendered = RenderedPart()
    for index, question in enumerate(questions):
        ref = question_ref(part.tool_call_id, index)
        rendered.lines.append(f"Quiz question {ref}: {_one_line(question.get('prompt', ''))}")
        choices = [_one_line(c) for c in _as_list(question.get("choices"))]
        if choices:
            rendered.lines.append("  choices: " + " | ".join(choices))
            correct = [choices[i] for i in _as_list(question.get("correct"))
                       if isinstance(i, int) and 0 <= i < len(choices)]
            if correct:
                rendered.lines.append("  correct answer: " + " | ".join(correct))
        elif question.get("answer") is not None:
            answer = question["answer"]
            shown = " | ".join(map(_one_line, answer)) if isinstance(answer, list) else answer
            rendered.lines.append(f"  accepted answer: {_one_line(shown)}")
        outcome = outcomes[index] if index < len(outcomes) else {}
        line, verdict = _verdict_line(outcome)
        rendered.lines.append(line)
        if verdict is not None:
            rendered.quizzes.append(QuizResult(ref, part.tool_call_id, index, verdict, at))
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
