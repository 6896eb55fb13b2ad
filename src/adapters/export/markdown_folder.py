"""``MarkdownFolderWriter``: the ``VaultWriter`` port on disk — a folder of Markdown notes, touching
only files whose content changed and removing only notes an earlier export wrote.

``refuse_unsafe`` turns down a folder that is (or lies inside) a vault you imported, or that holds
notes it did not write (an Obsidian vault, your own Markdown): an export must never overwrite a
learner's own notes by accident.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from studyhall.adapters.export.partial_files import sweep_partials, write_whole
from studyhall.core.errors import InvalidInput
from studyhall.core.library.export.marker import MARK_KEY, MARK_VALUE
from studyhall.core.library.export.vault import VaultReport

_MARK = f"---\n{MARK_KEY}: {MARK_VALUE}\n".encode()


def _is_ours(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(len(_MARK)) == _MARK
    except OSError:
        return False


class MarkdownFolderWriter:
    def refuse_unsafe(self, folder: str, imported_roots: Iterable[str]) -> None:
        where = Path(folder).resolve()
        for root in sorted(set(imported_roots)):
            vault = Path(root).resolve()
            if where == vault or vault in where.parents:
                raise InvalidInput(f"{folder} is inside {vault}, a vault you imported. Pick an "
                                   "empty folder for the export, or pass --force to write there "
                                   "anyway.")
        if not where.is_dir():
            return
        if (where / ".obsidian").exists():
            raise InvalidInput(f"{folder} is an Obsidian vault. Pick an empty folder for the "
                               "export, or pass --force to write into it anyway.")
        foreign = [p.name for p in sorted(where.glob("*.md")) if not _is_ours(p)]
        if foreign:
            raise InvalidInput(f"{folder} holds notes the export did not write ({foreign[0]}…). "
                               "Pick an empty folder, or pass --force to write there anyway.")

    def write(self, folder: str, notes: Mapping[str, str]) -> VaultReport:
        where = Path(folder)
        where.mkdir(parents=True, exist_ok=True)
        # A note's hidden partial left by an export that was killed mid-write (never a learner's
        # file: recognised by its whole name, in this folder only).
        sweep_partials(where, lambda target: target.endswith(".md"))
        written = unchanged = removed = 0
        for name, text in notes.items():
            path, data = where / name, text.encode("utf-8")
            try:
                same = path.read_bytes() == data
            except FileNotFoundError:
                same = False
            if same:
                unchanged += 1
                continue
            write_whole(path, data)
            written += 1
        keep = {n.casefold() for n in notes}
        for stale in sorted(where.glob("*.md")):
            # Only notes an earlier export wrote: a learner's own file is never removed.
            if stale.name.casefold() not in keep and _is_ours(stale):
                stale.unlink()
                removed += 1
        return VaultReport(len(notes), written, unchanged, removed)
