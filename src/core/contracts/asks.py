"""The Ask history: each conversation of grounded questions the window asked, kept so the
learner can re-open it (one file per conversation; the answers as they were streamed).

An exchange is written when its passages go out and again as its answer streams, marked
incomplete (``complete: false``) until the stream ends: a crash leaves the question, its passages
and the words already shown, marked ``cut_off``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field, model_validator
from studyhall.core.contracts.base import Record

# A conversation id the window makes up (``ask_`` and hex); it becomes a file name.
ASK_THREAD_PATTERN = r"^ask_[0-9a-f]{8,64}$"

# Why an answer stopped short, as kept on its exchange.
STOPPED = "stopped before the answer finished"  # the learner pressed Stop
CUT_OFF = "the answer was cut off: the app stopped before it finished"  # a crash mid-answer


class AskExchange(Record):
    """One question and what came back: the coverage case, the numbered passages the answer
    could cite, the answer text (empty with no model) and why it stopped short, if it did."""

    question: str
    asked_at: datetime
    case: str | None = None
    # NO_MATCH by scores alone near the question: "can't tell without a model", not "not there".
    unconfirmed: bool = False
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
    # Which exchange a checkpoint replaces (older records have none: they were written once).
    id: str | None = None
    # False while the answer streams: the record is a checkpoint. Read after a restart, the
    # app died before the answer ended (``reason`` is then ``CUT_OFF``).
    complete: bool = True
    # The answer stopped before it finished (a crash, the model's error or Stop): ``answer``
    # holds the words the learner saw, ``reason`` says why.
    cut_off: bool = False

    @model_validator(mode="before")
    @classmethod
    def _stopped_is_cut_off(cls, data: Any) -> Any:
        # Records from before ``cut_off`` existed said so only in their reason.
        if isinstance(data, dict) and "cut_off" not in data and data.get("reason") == STOPPED:
            return {**data, "cut_off": True}
        return data


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
