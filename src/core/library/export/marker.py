"""The mark on every note ``studyhall export markdown`` writes (frontmatter ``studyhall:
export``), and the import rule it drives: an exported note is skipped, with a reason, so
importing the export folder back never copies the graph into itself."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from studyhall.core.contracts.material import NoteFile, SkippedFile

MARK_KEY = "studyhall"
MARK_VALUE = "export"
SKIP_REASON = ("written by `studyhall export markdown` (frontmatter `studyhall: export`): its "
               "topics are already in your graph")


def is_exported(meta: Mapping[str, Any]) -> bool:
    return meta.get(MARK_KEY) == MARK_VALUE


def skip_exported(got: NoteFile | SkippedFile) -> NoteFile | SkippedFile:
    """The importer's read of a note, or a skip when the note is one of our exports."""
    if isinstance(got, NoteFile) and is_exported(got.meta):
        return SkippedFile(got.path, SKIP_REASON)
    return got
