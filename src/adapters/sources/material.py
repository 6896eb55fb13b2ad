"""``FileMaterialReader``: the course-material side of the import front door.

``READERS`` maps a file suffix to its reader (one function each); the notes importer and
``import_material`` dispatch on it. Every file — one asked for, one found by the folder scan,
one read for the reader — passes the one path rule (``path_rule``): nothing out of the root,
nothing in the data folder. Scanning skips hidden entries and reports what it cannot use
instead of failing.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from studyhall.adapters.sources._files import not_regular
from studyhall.adapters.sources.path_rule import PROTECTED, ROOT_ONLY, PathRule, Refused
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
    pairing_stem,
)
from studyhall.core.errors import NotFound

Reader = Callable[[str, str, PathRule], MaterialFile | SkippedFile]

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
    """Captions beside a media file, paired by stem (``X.mp4`` with ``X.vtt`` or
    ``X.eng.vtt``): that transcript is the one imported, the recording is its player."""
    stem = pairing_stem(name)
    try:
        names = os.listdir(folder)
    except OSError:
        return False
    return any(other.endswith(CAPTION_SUFFIXES) and pairing_stem(other) == stem
               and (folder / other).is_file() for other in names)


class FileMaterialReader:
    def __init__(self, include_notes: bool = True, transcripts_dir: Path | None = None,
                 rule: PathRule = ROOT_ONLY) -> None:
        # The notes importer reads Markdown itself; it can ask for course files only.
        self.include_notes = include_notes
        # Where transcripts made from audio/video are cached; None: media files are not read.
        self.transcripts_dir = transcripts_dir
        # The app's rule protects its data folder; every file read here passes it.
        self.rule = rule.called("import root")

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
        if not asked.is_dir():
            return self._one_file(root, asked, target)
        real_root = os.path.realpath(root)
        files: list[str] = []
        skipped: list[SkippedFile] = []
        seen: set[str] = set()
        for folder, dirs, names in os.walk(asked, followlinks=True, onerror=None):
            real = os.path.realpath(folder)
            rel_folder = Path(os.path.relpath(folder, root)).as_posix()
            refused = self.rule.refusal(real_root, real)
            if refused is not None or real in seen:
                why = (PROTECTED if refused is not None and refused.reason == PROTECTED
                       else "a symlinked folder outside the import root or already read")
                skipped.append(SkippedFile(rel_folder, why))
                dirs[:] = []
                continue
            seen.add(real)
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(names):
                if name.startswith(".") or not self._wanted(name, Path(folder)):
                    continue
                rel = Path(folder, name).relative_to(root).as_posix()
                refused = self.rule.refusal(real_root, os.path.realpath(Path(folder, name)))
                unusable = (refused.reason if refused is not None
                            else _not_a_file(Path(folder, name)))
                if unusable is not None:  # a stat never waits, even on a FIFO
                    skipped.append(SkippedFile(rel, unusable))
                    continue
                files.append(rel)
        return MaterialScan(str(root), tuple(sorted(files)), tuple(skipped), target=target)

    def _one_file(self, root: Path, asked: Path, target: str) -> MaterialScan:
        """A single file asked for: the same rule as a file the folder scan finds (a symlink
        to a file outside its folder, or into the data folder, is reported, never read)."""
        located = self.rule.locate(str(root), target)
        unusable = located.reason if isinstance(located, Refused) else _not_a_file(asked)
        if unusable is None and not self._wanted(asked.name, asked.parent):
            unusable = NOT_MATERIAL
        if unusable is not None:
            return MaterialScan(str(root), (), (SkippedFile(target, unusable),), single_file=True,
                                target=target)
        return MaterialScan(str(root), (target,), single_file=True, target=target)

    def read(self, root: str, path: str) -> MaterialFile | SkippedFile:
        if is_media(path) and self.transcripts_dir is not None:
            return cached_transcript(self.transcripts_dir, root, path, self.rule)
        reader = reader_for(path)
        if reader is None:
            return SkippedFile(path, NOT_MATERIAL)
        return reader(root, path, self.rule)

    def locate(self, root: str, path: str) -> str | None:
        """The real path of ``root/path`` when the path rule lets it be read and it is a
        regular file (the reader's and the player's one way to a file), else ``None``."""
        located = self.rule.locate(root, path)
        if isinstance(located, Refused) or not os.path.isfile(located):
            return None
        return located
