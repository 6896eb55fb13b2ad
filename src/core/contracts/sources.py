"""Imported sources: notes (vault files) and course material (transcripts, PDFs, text)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field
from studyhall.core.contracts.base import Record

SourceKind = Literal["note", "transcript", "pdf", "text"]
# "needs_transcription": audio/video with no captions, waiting for a transcriber key.
SourceStatus = Literal["imported", "unchanged", "skipped", "deleted", "needs_transcription"]


class Source(Record):
    id: str = Field(min_length=1)  # deterministic from the root-relative path
    path: str  # relative to the imported root (vault)
    root: str  # absolute path of the imported root
    kind: SourceKind
    status: SourceStatus
    reason: str | None = None  # why it was skipped
    action: str | None = None  # what the learner does to fix it (e.g. add a transcriber key)
    content_hash: str | None = None
    size: int | None = None
    links: tuple[str, ...] = ()  # resolved link targets (root-relative paths)
    broken_links: tuple[str, ...] = ()
    media: str | None = None  # a video file or URL beside a transcript
    # A note's sections at its last import: each heading's Obsidian subpath ("H1#H2"), "" for
    # the title and preamble. The outline leaves out headings its evidence quotes that are gone
    # (the evidence stays). None: not known (a source recorded before this, or not a note).
    sections: tuple[str, ...] | None = None
    imported_at: datetime
