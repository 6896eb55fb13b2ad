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

    def read_note(self, root: str, path: str) -> NoteFile | SkippedFile:
        """Read one note of the vault at ``root`` (the reader's view of an imported note),
        refused for the same reasons, in the same words, as in an import."""
        ...


class MaterialReader(Protocol):
    """Reads course material (.vtt/.srt transcripts, PDFs, plain text, Markdown)."""

    def scan(self, path: str) -> MaterialScan:
        """Find readable course files under a file or folder; ``NotFound`` if nothing is there."""
        ...

    def read(self, root: str, path: str) -> MaterialFile | SkippedFile:
        """Read one file; a broken or unusable file comes back as ``SkippedFile`` with why."""
        ...

    def locate(self, root: str, path: str) -> str | None:
        """The real path of ``root/path`` when it is a regular file the path rule lets be read
        (inside the real root, not in the data folder), else ``None``."""
        ...


class AnkiDeckReader(Protocol):
    """Reads an Anki package (``.apkg``) whole, before anything is written."""

    def read(self, path: str) -> AnkiDeckFile:
        """The package's notes and review history. Raises ``NotFound`` when nothing is at the
        path and ``InvalidInput`` (saying what to do) for a file that is not a usable deck."""
        ...
