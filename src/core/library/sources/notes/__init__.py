"""Obsidian notes, parsed purely: frontmatter, sections and blocks, links, tags, resolution."""

from studyhall.core.library.sources.notes.document import (
    Block,
    NoteDoc,
    NoteLink,
    Section,
    parse_note,
)
from studyhall.core.library.sources.notes.frontmatter import (
    Frontmatter,
    NoteMeta,
    note_meta,
    split_frontmatter,
)
from studyhall.core.library.sources.notes.resolve import Resolution, VaultIndex, is_note

__all__ = [
    "Block",
    "Frontmatter",
    "NoteDoc",
    "NoteLink",
    "NoteMeta",
    "Resolution",
    "Section",
    "VaultIndex",
    "is_note",
    "note_meta",
    "parse_note",
    "split_frontmatter",
]
