"""Background jobs of the workbench (research, demo, visual, notes, flashcards, study plan)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from .base import Record
from .chat import Usage

JobKind = Literal["research", "demo", "visual", "notes", "flashcards", "study_plan"]
JobStatus = Literal["queued", "running", "done", "error", "aborted"]


class Job(Record):
    id: str = Field(min_length=1)
    chat_id: str
    kind: JobKind
    status: JobStatus
    input: dict[str, Any]
    result: dict[str, Any] | None = None
    error: str | None = None
    attempts: int = 0
    usage: Usage | None = None
    created_at: datetime
    updated_at: datetime
