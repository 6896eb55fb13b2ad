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
from studyhall.adapters.sources.transcript_cache import cached_transcript
from studyhall.adapters.sources.vault import vault_root
from studyhall.core.contracts.material import (
    MaterialFile,
    MaterialScan,
    SkippedFile,
    is_media,
)
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
CAPTION_SUFFIXES = (".vtt", ".srt", ".VTT", ".SRT")
NOT_MATERIAL = "not course material (.vtt, .srt, .pdf, .txt, .md, or audio/video without captions)"


def _not_a_file(path: Path) -> str | None:
    """Why ``path`` is not read: not a regular file, or its kind cannot be looked at."""
    try:
        return not_regular(os.stat(path).st_mode)
    except OSError as e:
        return f"could not be read ({e.strerror or e})"


def reader_for(path: str) -> Reader | None:
    return READERS.get(os.path.splitext(path)[1].lower())


def _captioned(folder: Path, name: str) -> bool:
    """A same-stem .vtt/.srt beside a media file: that transcript is the one imported."""
    stem = os.path.splitext(name)[0]
    return any((folder / (stem + suffix)).is_file() for suffix in CAPTION_SUFFIXES)


class FileMaterialReader:
    def __init__(self, include_notes: bool = True, transcripts_dir: Path | None = None) -> None:
        # The notes importer reads Markdown itself; it can ask for course files only.
        self.include_notes = include_notes
        # Where transcripts made from audio/video are cached; None: media files are not read.
        self.transcripts_dir = transcripts_dir

    def _wanted(self, name: str, folder: Path | None = None) -> bool:
        if is_media(name) and self.transcripts_dir is not None:
            return folder is None or not _captioned(folder, name)
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
            if not self._wanted(asked.name, asked.parent):
                return MaterialScan(str(root), (), (SkippedFile(target, NOT_MATERIAL),), single_file=True, target=target)
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
                if name.startswith(".") or not self._wanted(name, Path(folder)):
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
        if is_media(path) and self.transcripts_dir is not None:
            return cached_transcript(self.transcripts_dir, root, path)
        reader = reader_for(path)
        if reader is None:
            return SkippedFile(path, NOT_MATERIAL)
        return reader(root, path)
