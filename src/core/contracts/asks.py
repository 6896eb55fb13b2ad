"""The Ask history: each conversation of grounded questions the window asked, kept so the
learner can re-open it (one file per conversation; the answers as they were streamed)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field
from studyhall.core.contracts.base import Record

# A conversation id the window makes up (``ask_`` and hex); it becomes a file name.
ASK_THREAD_PATTERN = r"^ask_[0-9a-f]{8,64}$"


class AskExchange(Record):
    """One question and what came back: the coverage case, the numbered passages the answer
    could cite, the answer text (empty with no model) and why it stopped short, if it did."""

    question: str
    asked_at: datetime
    case: str | None = None
    sources: list[dict[str, Any]] = Field(default_factory=list)
    answer: str = ""
    # With no answer: the best-ranked passages the learner was shown instead ("not an answer").
    passages: list[dict[str, Any]] = Field(default_factory=list)
    answered: bool = False
    # Why there is no (whole) answer: no model configured, the model's error, or "stopped".
    reason: str | None = None
    source_id: str | None = None
    t: float | None = None
    page: int | None = None


class AskThread(Record):
    id: str = Field(pattern=ASK_THREAD_PATTERN)
    created_at: datetime
    updated_at: datetime
    exchanges: list[AskExchange] = Field(default_factory=list)


class AskThreadSummary(Record):
    """What the history list shows of one conversation."""

    id: str
    title: str  # its first question
    questions: int
    updated_at: datetime


class AskHistory(Record):
    """``GET /api/asks``: the conversations, most recently asked first."""

    threads: list[AskThreadSummary]
