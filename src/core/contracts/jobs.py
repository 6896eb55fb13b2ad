"""Background jobs of the workbench (research, demo, visual, and the study artifacts: notes,
flashcards, study plan, study guide, mind map).

Lifecycle: ``queued`` (not started, or stopped by a clean shutdown) -> ``running`` -> the work
finishes and ``outcome`` is set (``result`` or ``error`` filled) while ``status`` stays
``running`` -> the job's steer is delivered in a turn that persisted -> ``status`` flips to
``outcome``. ``aborted`` is terminal and never delivered.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field
from studyhall.core.contracts.base import Record
from studyhall.core.contracts.chat import Usage

JobKind = Literal["research", "demo", "visual", "notes", "flashcards", "study_plan",
                  "study_guide", "mind_map"]
JobStatus = Literal["queued", "running", "done", "error", "aborted"]
JobOutcome = Literal["done", "error"]


class Job(Record):
    id: str = Field(min_length=1)
    # The session it delivers to; None for an artifact made from a scope (the Artifacts view,
    # ``studyhall make``): nothing to deliver, so its outcome is its status at once.
    chat_id: str | None = None
    kind: JobKind
    status: JobStatus
    input: dict[str, Any]
    result: dict[str, Any] | None = None
    error: str | None = None
    attempts: int = 0
    usage: Usage | None = None
    created_at: datetime
    updated_at: datetime
    # The status the job flips to once its steer is delivered (set when the work finished).
    outcome: JobOutcome | None = None
    finished_at: datetime | None = None
    # How many times a start-up found it interrupted mid-work and ran it again.
    restarts: int = Field(default=0, ge=0)
