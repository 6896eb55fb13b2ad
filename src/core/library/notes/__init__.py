"""Obsidian notes, parsed purely: frontmatter, sections and blocks, links, tags, resolution."""

from .document import Block, NoteDoc, NoteLink, Section, parse_note
from .frontmatter import Frontmatter, NoteMeta, note_meta, split_frontmatter
from .resolve import Resolution, VaultIndex, is_note

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
