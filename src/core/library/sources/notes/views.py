"""A note as the extractor sees it: one view per section, fingerprinted for coverage.

Each section (the preamble, then every heading) is one view, so editing a section uncovers that
section only and re-extracts just it. A view's first line is its context — the note title and
the headings above it — so every view reads on its own, and the title itself can be quoted.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from studyhall.core.library.extraction.coverage import View, make_view
from studyhall.core.library.sources.notes.document import NoteDoc, Section
from studyhall.core.library.sources.source_ids import path_source_id

NOTE_LABEL = "note"
LINKS_SUFFIX = "@links"  # message id suffix of a note's link view ('@' never starts an anchor)


def note_source_id(vault_name: str, path: str) -> str:
    """A note's id: the one rule the course-material import uses for the same file too."""
    return path_source_id(NOTE_LABEL, vault_name, path)


def links_source_id(vault_name: str) -> str:
    """The source that holds a vault's link views (one per note): the links between notes are
    merged in big batches under it, after every note's own nodes exist."""
    digest = hashlib.sha256(f"{vault_name}/@links".encode()).hexdigest()
    return f"links_{digest[:20]}"


def vault_run_source(vault_name: str) -> str:
    """What a run spanning many notes of a vault names as its source (its checkpoint's)."""
    digest = hashlib.sha256(f"{vault_name}/@vault".encode()).hexdigest()
    return f"vault_{digest[:20]}"


def section_message_id(source_id: str, section: Section) -> str:
    return f"{source_id}#{section.anchor}"


def links_message_id(source_id: str) -> str:
    return source_id + LINKS_SUFFIX


def title_line(doc: NoteDoc) -> str:
    return f"# {doc.title}"


def context_line(doc: NoteDoc, section: Section) -> str:
    if section.index == 0:
        return title_line(doc)
    trail = [doc.title]
    parent = section.parent
    chain: list[str] = []
    while parent:
        chain.append(doc.sections[parent].heading or "")
        parent = doc.sections[parent].parent
    trail.extend(reversed(chain))
    return " > ".join(trail)


@dataclass(frozen=True)
class SectionView:
    section: Section
    view: View


def note_views(doc: NoteDoc, source_id: str, at: datetime) -> list[SectionView]:
    out: list[SectionView] = []
    for section in doc.sections:
        body = [
            doc.lines[n].rstrip() for n in range(section.start, section.end) if doc.lines[n].strip()
        ]
        lines = [context_line(doc, section), *body]
        view = make_view(source_id, section_message_id(source_id, section), NOTE_LABEL, lines, at)
        out.append(SectionView(section, view))
    return out
