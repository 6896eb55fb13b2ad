"""A grounded question as ``studyhall ask`` and ``POST /api/ask`` both take it: one set of
limits and one check, so the command line and the HTTP API refuse the same things."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator
from studyhall.core.contracts.chat import MAX_MESSAGE_CHARS, MAX_QUESTION_CHARS

# An imported source's id: its kind and a digest (``note_3f9a…``, ``transcript_…``), never a
# path — the id names a source the index holds, it does not point into the file system.
SOURCE_ID_PATTERN = r"^[a-z]{1,20}_[0-9a-f]{8,64}$"
MAX_SECONDS = 1_000_000.0  # a position in a recording (over eleven days)
MAX_PAGE = 1_000_000
MAX_HISTORY = 50


class AskTurn(BaseModel):
    """One earlier turn of the conversation a follow-up question belongs to."""

    role: Literal["user", "assistant"]
    text: str = Field(max_length=MAX_MESSAGE_CHARS)


class AskRequest(BaseModel):
    """A question, and where the learner is when asking it (a source, and a moment or page)."""

    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS)
    source_id: str | None = Field(default=None, pattern=SOURCE_ID_PATTERN)
    t: float | None = Field(default=None, ge=0, le=MAX_SECONDS, allow_inf_nan=False)
    page: int | None = Field(default=None, ge=1, le=MAX_PAGE)
    # Recent turns, oldest first; only the last few are used (see core.library.rewriting).
    history: list[AskTurn] = Field(default_factory=list, max_length=MAX_HISTORY)

    @model_validator(mode="after")
    def _complete(self) -> AskRequest:
        if not self.question.strip():
            raise ValueError("the question is empty")
        if (self.t is not None or self.page is not None) and self.source_id is None:
            raise ValueError("a position (t or page) needs the source it is in (source_id)")
        return self
