"""Source ports: reading a notes vault, course material and Anki decks from disk."""

from __future__ import annotations

from typing import Protocol

from studyhall.core.contracts.anki_deck import AnkiDeckFile
from studyhall.core.contracts.material import (
    MaterialFile,
    MaterialScan,
    NoteFile,
    SkippedFile,
    VaultScan,
)


class VaultReader(Protocol):
    def scan(self, path: str) -> VaultScan:
        """Walk a file or folder. Raises ``NotFound`` when the path does not exist."""
        ...

    def read(self, scan: VaultScan, path: str) -> NoteFile | SkippedFile:
        """Read one note of a scan; a file that cannot be used comes back as ``SkippedFile``."""
        ...


class MaterialReader(Protocol):
    """Reads course material (.vtt/.srt transcripts, PDFs, plain text, Markdown)."""

    def scan(self, path: str) -> MaterialScan:
        """Find readable course files under a file or folder; ``NotFound`` if nothing is there."""
        ...

    def read(self, root: str, path: str) -> MaterialFile | SkippedFile:
        """Read one file; a broken or unusable file comes back as ``SkippedFile`` with why."""
        ...


class AnkiDeckReader(Protocol):
    """Reads an Anki package (``.apkg``) whole, before anything is written."""

    def read(self, path: str) -> AnkiDeckFile:
        """The package's notes and review history. Raises ``NotFound`` when nothing is at the
        path and ``InvalidInput`` (saying what to do) for a file that is not a usable deck."""
        ...
