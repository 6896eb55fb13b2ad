"""``FileMaterialReader``: the course-material side of the import front door.

``READERS`` maps a file suffix to its reader (one function each); the notes importer and
``import_material`` dispatch on it. Scanning follows no symlink out of the root, skips hidden
entries, and reports what it cannot use instead of failing.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from studyhall.adapters.sources._files import not_regular
from studyhall.adapters.sources.pdf import read_pdf
from studyhall.adapters.sources.text import read_text
from studyhall.adapters.sources.transcript import read_transcript
from studyhall.adapters.sources.vault import vault_root
from studyhall.core.contracts.material import MaterialFile, MaterialScan, SkippedFile
from studyhall.core.errors import NotFound

Reader = Callable[[str, str], MaterialFile | SkippedFile]

READERS: dict[str, Reader] = {
    ".vtt": read_transcript,
    ".srt": read_transcript,
    ".pdf": read_pdf,
    ".txt": read_text,
    ".md": read_text,
    ".markdown": read_text,
}
NOTE_SUFFIXES = (".md", ".markdown")


def _not_a_file(path: Path) -> str | None:
    """Why ``path`` is not read: not a regular file, or its kind cannot be looked at."""
    try:
        return not_regular(os.stat(path).st_mode)
    except OSError as e:
        return f"could not be read ({e.strerror or e})"


def reader_for(path: str) -> Reader | None:
    return READERS.get(os.path.splitext(path)[1].lower())


class FileMaterialReader:
    def __init__(self, include_notes: bool = True) -> None:
        # The notes importer reads Markdown itself; it can ask for course files only.
        self.include_notes = include_notes

    def _wanted(self, name: str) -> bool:
        suffix = os.path.splitext(name)[1].lower()
        return suffix in READERS and (self.include_notes or suffix not in NOTE_SUFFIXES)

    def scan(self, path: str) -> MaterialScan:
        asked = Path(os.path.abspath(os.path.expanduser(path)))
        if not os.path.lexists(asked):
            raise NotFound(f"There is nothing at {asked}. Check the path and try again.")
        # The notes import's root (the vault holding the path), so paths, and with them the
        # source ids, are the same in both imports even when a vault's subfolder is imported.
        root = vault_root(asked)
        target = "" if asked == root else asked.relative_to(root).as_posix()
        unusable = None if asked.is_dir() else _not_a_file(asked)
        if unusable is not None:
            return MaterialScan(str(root), (), (SkippedFile(target, unusable),), single_file=True, target=target)
        if asked.is_file():
            if not self._wanted(asked.name):
                return MaterialScan(str(root), (), (SkippedFile(target, "not course material (.vtt, .srt, .pdf, .txt, .md)"),), single_file=True, target=target)
            return MaterialScan(str(root), (target,), single_file=True, target=target)
        real_root = os.path.realpath(root)
        files: list[str] = []
        skipped: list[SkippedFile] = []
        seen: set[str] = set()
        for folder, dirs, names in os.walk(asked, followlinks=True, onerror=None):
            real = os.path.realpath(folder)
            rel_folder = Path(os.path.relpath(folder, root)).as_posix()
            if real in seen or not (real + os.sep).startswith(real_root + os.sep) and real != real_root:
                skipped.append(SkippedFile(rel_folder, "a symlinked folder outside the import root or already read"))
                dirs[:] = []
                continue
            seen.add(real)
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(names):
                if name.startswith(".") or not self._wanted(name):
                    continue
                rel = Path(folder, name).relative_to(root).as_posix()
                target_file = os.path.realpath(Path(folder, name))
                if not target_file.startswith(real_root + os.sep):
                    skipped.append(SkippedFile(rel, "a symlink pointing outside the import root"))
                    continue
                unusable = _not_a_file(Path(folder, name))  # a stat never waits, even on a FIFO
                if unusable is not None:
                    skipped.append(SkippedFile(rel, unusable))
                    continue
                files.append(rel)
        return MaterialScan(str(root), tuple(sorted(files)), tuple(skipped), target=target)

    def read(self, root: str, path: str) -> MaterialFile | SkippedFile:
        reader = reader_for(path)
        if reader is None:
            return SkippedFile(path, "not course material (.vtt, .srt, .pdf, .txt, .md)")
        return reader(root, path)
