"""Graded questions: the output a ``quiz`` tool part stores once the learner answers.

The same dict is sent to the model as the tool result and read back by the library's merger
(``results[i].verdict`` is what the ledgers record), so its shape is a contract.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from studyhall.core.contracts.base import Record
from studyhall.core.contracts.graph import QuizVerdict

QuestionKind = Literal["single", "multiple", "short", "numeric"]


class QuestionResult(Record):
    index: int = Field(ge=0)  # the question's position in the quiz arguments
    kind: QuestionKind
    prompt: str
    verdict: QuizVerdict
    # What the learner answered, readable (choice texts joined by " | ", the typed text or
    # number); None for "I don't know".
    response: str | None = None
    chosen: tuple[int, ...] | None = None  # original choice indices (choice questions)
    expected: tuple[str, ...] = ()  # the correct choices / accepted answers, readable
    explanation: str | None = None


class QuizOutput(Record):
    status: Literal["answered"] = "answered"
    dont_know: bool = False  # the learner answered the whole quiz "I don't know"
    correct: int = Field(ge=0)
    total: int = Field(ge=1)
    results: tuple[QuestionResult, ...]
    plan_node: str | None = None
    answered_at: str | None = None  # ISO time, added by the caller that knows the clock
