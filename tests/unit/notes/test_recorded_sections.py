"""The sources index records each note's sections at its import (``Source.sections``); an
import that could not read a note's sections (the file or its extraction skipped) keeps the
ones recorded before, which still describe the evidence its older text left."""

from __future__ import annotations

from datetime import UTC, datetime

from studyhall.core.contracts.sources import Source
from studyhall.core.library.sources.notes.vault_index import NoteOutcome, source_records

AT = datetime(2026, 1, 1, tzinfo=UTC)
BEFORE = ("", "Cells", "Cells#Nucleus")


def previous(sections: tuple[str, ...] | None = BEFORE) -> list[Source]:
    return [Source(id="note_c", path="Cells.md", root="/v", kind="note", status="imported",
                   sections=sections, imported_at=AT)]


def recorded(outcome: NoteOutcome, before: list[Source]) -> tuple[str, ...] | None:
    fresh, _ = source_records("/v", "", [outcome], {"note_c"}, before, AT, complete=True)
    [record] = fresh
    return record.sections


def test_an_import_records_the_sections_the_note_has_now():
    now = ("", "Cells", "Cells#Cell nucleus")
    assert recorded(NoteOutcome("note_c", "Cells.md", "imported", sections=now),
                    previous()) == now


def test_a_skipped_note_keeps_the_sections_recorded_before():
    failed = NoteOutcome("note_c", "Cells.md", "skipped", "extraction failed: the model timed out")
    assert recorded(failed, previous()) == BEFORE


def test_a_note_never_recorded_with_sections_stays_unknown():
    assert recorded(NoteOutcome("note_c", "Cells.md", "skipped", "a binary file, not text"),
                    previous(None)) is None
    assert recorded(NoteOutcome("note_c", "Cells.md", "skipped", "a binary file, not text"),
                    []) is None
