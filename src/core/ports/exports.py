"""Export ports: writing the learner's graph out of the app — an Anki deck, a folder of Markdown
notes. The core decides what to write (``core.library.export`` builds the notes as data); a
writer only puts those bytes on disk, whole or not at all."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from studyhall.core.library.export.anki_notes import AnkiNote
from studyhall.core.library.export.vault import VaultReport


class DeckWriter(Protocol):
    """Anki notes as an Anki package (``.apkg``): one deck, a note per ``AnkiNote`` whose GUID
    comes from its key, so a re-export updates the same notes in Anki."""

    def write(self, notes: Sequence[AnkiNote], deck_name: str, target: str) -> int:
        """Write the deck to ``target`` (replacing it whole, or leaving it as it was); the
        number of notes written."""
        ...

    def package(self, notes: Sequence[AnkiNote], deck_name: str) -> bytes:
        """The same deck as bytes (a download)."""
        ...


class VaultWriter(Protocol):
    """A folder of Markdown notes, each written whole; only notes an export wrote (they open
    with the ``studyhall: export`` frontmatter mark) are ever replaced or removed."""

    def refuse_unsafe(self, folder: str, imported_roots: Iterable[str]) -> None:
        """``InvalidInput`` when writing into ``folder`` could touch the learner's own notes:
        it is (or lies inside) an imported vault, is an Obsidian vault, or holds notes it did
        not write."""
        ...

    def write(self, folder: str, notes: Mapping[str, str]) -> VaultReport:
        """Make ``folder`` hold ``notes`` (file name -> text): write what changed, keep what is
        the same, remove the export's own notes that are no longer in ``notes``."""
        ...
