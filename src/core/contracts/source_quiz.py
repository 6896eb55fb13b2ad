""""Quiz me" on a source, as ``POST /api/sources/{id}/quiz`` and its answers take them."""

from __future__ import annotations

from pydantic import BaseModel, Field
from studyhall.core.contracts.asking import HEADING_SLUG_PATTERN, MAX_PAGE, MAX_SECONDS


class SourceQuizRequest(BaseModel):
    """Where the learner is in the source: questions cover what comes before it (nothing
    given: the whole source)."""

    t: float | None = Field(default=None, ge=0, le=MAX_SECONDS, allow_inf_nan=False)
    page: int | None = Field(default=None, ge=1, le=MAX_PAGE)
    at: str | None = Field(default=None, pattern=HEADING_SLUG_PATTERN)


class SourceQuizAnswer(BaseModel):
    """``{"choices": [[int], [int], [int]]}`` (displayed indices, one list per question) or
    ``{"dont_know": true}``."""

    choices: list[list[int]] | None = Field(default=None, max_length=10)
    dont_know: bool | None = None

    def as_answer(self) -> dict[str, object]:
        return self.model_dump(exclude_none=True)
