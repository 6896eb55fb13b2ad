"""``InMemoryDeckWriter`` and ``InMemoryVaultWriter``: the export ports held in dicts (a deck per
target, a folder of notes per folder name), to the same contract as the writers on disk."""

from __future__ import annotations

import json
import posixpath
from collections.abc import Iterable, Mapping, Sequence

from studyhall.core.errors import InvalidInput
from studyhall.core.library.export.anki_notes import AnkiNote
from studyhall.core.library.export.marker import MARK_KEY, MARK_VALUE
from studyhall.core.library.export.vault import VaultReport

_MARK = f"---\n{MARK_KEY}: {MARK_VALUE}\n"


class InMemoryDeckWriter:
    """A deck is kept as ``package`` bytes: JSON of its name and notes (the GUID is the key)."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}

    def write(self, notes: Sequence[AnkiNote], deck_name: str, target: str) -> int:
        self.files[target] = self.package(notes, deck_name)
        return len(notes)

    def package(self, notes: Sequence[AnkiNote], deck_name: str) -> bytes:
        return json.dumps({"deck": deck_name, "notes": [n._asdict() for n in notes]}).encode()


class InMemoryVaultWriter:
    def __init__(self) -> None:
        self.folders: dict[str, dict[str, str]] = {}
        self.obsidian: set[str] = set()  # folders that hold an ``.obsidian`` settings folder

    def refuse_unsafe(self, folder: str, imported_roots: Iterable[str]) -> None:
        where = posixpath.normpath(folder)
        for root in sorted(set(imported_roots)):
            vault = posixpath.normpath(root)
            if where == vault or where.startswith(vault.rstrip("/") + "/"):
                raise InvalidInput(f"{folder} is inside {vault}, a vault you imported.")
        if where in self.obsidian:
            raise InvalidInput(f"{folder} is an Obsidian vault.")
        notes = self.folders.get(where, {})
        foreign = [n for n in sorted(notes) if n.endswith(".md") and not _ours(notes[n])]
        if foreign:
            raise InvalidInput(f"{folder} holds notes the export did not write ({foreign[0]}…).")

    def write(self, folder: str, notes: Mapping[str, str]) -> VaultReport:
        files = self.folders.setdefault(posixpath.normpath(folder), {})
        written = unchanged = 0
        for name, text in notes.items():
            if files.get(name) == text:
                unchanged += 1
                continue
            files[name] = text
            written += 1
        keep = {n.casefold() for n in notes}
        stale = [n for n in sorted(files) if n.endswith(".md") and n.casefold() not in keep
                 and _ours(files[n])]
        for name in stale:
            del files[name]
        return VaultReport(len(notes), written, unchanged, len(stale))


def _ours(text: str) -> bool:
    return text.startswith(_MARK)
