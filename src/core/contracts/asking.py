"""A grounded question as ``studyhall ask`` and ``POST /api/ask`` both take it: one set of
limits and one check, so the command line and the HTTP API refuse the same things."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.json_schema import JsonDict
from studyhall.core.contracts.asks import ASK_THREAD_PATTERN
from studyhall.core.contracts.chat import MAX_MESSAGE_CHARS, MAX_QUESTION_CHARS
from studyhall.core.contracts.text_patterns import NOT_BLANK

# An imported source's id: its kind and a digest (``note_3f9a…``, ``transcript_…``), never a
# path — the id names a source the index holds, it does not point into the file system.
SOURCE_ID_PATTERN = r"^[a-z]{1,20}_[0-9a-f]{8,64}$"
MAX_SECONDS = 1_000_000.0  # a position in a recording (over eleven days)
MAX_PAGE = 1_000_000
MAX_HISTORY = 50
HEADING_SLUG_PATTERN = r"^[^\s#?&/]{1,200}$"  # a heading's slug: one word-ish token


class AskTurn(BaseModel):
    """One earlier turn of the conversation a follow-up question belongs to."""

    model_config = ConfigDict(defer_build=True)  # built on first use, not at start-up

    role: Literal["user", "assistant"]
    text: str = Field(max_length=MAX_MESSAGE_CHARS)


# The checks of ``_complete`` as JSON Schema, for the OpenAPI document: a question that is not
# all whitespace, and a position (``t`` or ``page``) only with the ``source_id`` it is in.
_POSITION_NEEDS_SOURCE: JsonDict = {
    "if": {"anyOf": [{"required": ["t"], "properties": {"t": {"type": "number"}}},
                     {"required": ["page"], "properties": {"page": {"type": "integer"}}},
                     {"required": ["at"], "properties": {"at": {"type": "string"}}}]},
    "then": {"required": ["source_id"], "properties": {"source_id": {"type": "string"}}},
}


class AskRequest(BaseModel):
    """A question, and where the learner is when asking it (a source, and a moment or page)."""

    model_config = ConfigDict(json_schema_extra=_POSITION_NEEDS_SOURCE, defer_build=True)

    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS,
                          json_schema_extra=NOT_BLANK)
    source_id: str | None = Field(default=None, pattern=SOURCE_ID_PATTERN)
    t: float | None = Field(default=None, ge=0, le=MAX_SECONDS, allow_inf_nan=False)
    page: int | None = Field(default=None, ge=1, le=MAX_PAGE)
    # A note's heading on screen (its slug, as in ``#/sources/{id}?at=slug``).
    at: str | None = Field(default=None, pattern=HEADING_SLUG_PATTERN)
    # Recent turns, oldest first; only the last few are used (see core.library.rewriting).
    history: list[AskTurn] = Field(default_factory=list, max_length=MAX_HISTORY)
    # The window's conversation this question belongs to: given, the exchange is kept in the
    # Ask history under this id (``GET /api/asks``); absent, nothing is recorded.
    thread_id: str | None = Field(default=None, pattern=ASK_THREAD_PATTERN)

    @model_validator(mode="after")
    def _complete(self) -> AskRequest:
        if not self.question.strip():
            raise ValueError("the question is empty")
        if (self.t is not None or self.page is not None or self.at is not None) \
                and self.source_id is None:
            raise ValueError("a position (t, page or at) needs the source it is in (source_id)")
        return self
