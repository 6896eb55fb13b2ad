"""Source ports: reading a notes vault and course material from disk."""

from __future__ import annotations

from typing import Protocol

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
