"""``FileVaultReader``: walk a Markdown/Obsidian vault on disk and read its notes safely.

A file that cannot be used is never fatal: binary content, a file over the size limit, bytes
that are not UTF-8, a symlink loop, a symlink that leaves the vault, a file or folder we may not
read, a named pipe or a device (only regular files are ever opened), anything in Studyhall's own
data folder (the one path rule, ``path_rule``) — each comes back as a ``SkippedFile`` with the
reason, and the walk goes on. Hidden entries (``.obsidian``,
``.git``, ``.trash``) are not part of the notes and are not reported.
Frontmatter is loaded with PyYAML's safe loader (libyaml's when built in; no object construction).
"""

from __future__ import annotations

import errno
import hashlib
import os
from pathlib import Path
from typing import Any

from studyhall.adapters.sources._files import not_regular
from studyhall.adapters.sources.path_rule import ROOT_ONLY, PathRule, Refused
from studyhall.core.contracts.material import NoteFile, SkippedFile, VaultScan
from studyhall.core.errors import NotFound
from studyhall.core.library.sources.notes import is_note, split_frontmatter
from studyhall.core.library.sources.notes.vault_index import under

DEFAULT_MAX_BYTES = 2 * 1024 * 1024
MAX_VAULT_DEPTH = 12  # folders up from the path asked for, looking for the vault's .obsidian/
_SNIFF = 8192


class FileVaultReader:
    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES, rule: PathRule = ROOT_ONLY) -> None:
        self.max_bytes = max_bytes
        self.rule = rule.called("vault")  # the app's rule protects its data folder

    # --- scan ---------------------------------------------------------------------------

    def scan(self, path: str) -> VaultScan:
        asked = Path(os.path.abspath(os.path.expanduser(path)))
        if not os.path.lexists(asked):
            raise NotFound(f"There is nothing at {asked}. Check the path and try again.")
        root = vault_root(asked)
        real_root = Path(os.path.realpath(root))
        target = "" if asked == root else asked.relative_to(root).as_posix()
        refused = self.rule.refusal(str(real_root), str(real_root))
        if refused is not None:  # the data folder itself (or a folder in it): one line, no walk
            return VaultScan(str(root), target, (), (), (SkippedFile(target or ".", refused.reason),))
        walk = _Walk(root, real_root, self.rule)
        walk.run()
        files = sorted(walk.files)
        notes = tuple(p for p in files if under(p, target) and is_note(p))
        skipped = sorted((s for s in walk.skipped if under(s.path, target)), key=lambda s: s.path)
        return VaultScan(str(root), target, tuple(files), notes, tuple(skipped))

    # --- read ---------------------------------------------------------------------------

    def read(self, scan: VaultScan, path: str) -> NoteFile | SkippedFile:
        return self.read_note(scan.root, path)

    def read_note(self, root: str, path: str) -> NoteFile | SkippedFile:
        """One note of the vault at ``root``, refused for the same reasons as in an import."""
        try:
            opened = self.rule.open(root, path)
            if isinstance(opened, Refused):
                return SkippedFile(path, opened.reason)
            fh, info = opened  # the file opened, not the name the scan saw
            with fh:
                if info.st_size > self.max_bytes:
                    return SkippedFile(
                        path,
                        f"too large ({_size(info.st_size)}; the limit is {_size(self.max_bytes)})",
                    )
                data = fh.read(self.max_bytes + 1)
        except OSError as e:
            return SkippedFile(path, _unreadable(e))
        if len(data) > self.max_bytes:  # it grew after the stat
            return SkippedFile(path, f"too large (over the {_size(self.max_bytes)} limit)")
        if b"\x00" in data[:_SNIFF]:
            return SkippedFile(path, "a binary file, not text")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            return SkippedFile(
                path, f"not valid UTF-8 (bad byte at offset {e.start}); save it as UTF-8"
            )
        meta, meta_error = _frontmatter(text)
        return NoteFile(path, text, meta, meta_error, len(data), hashlib.sha256(data).hexdigest())


class _Walk:
    """A depth-first walk that follows symlinks only when they stay inside the vault."""

    def __init__(self, root: Path, real_root: Path, rule: PathRule) -> None:
        self.root = root
        self.real_root = str(real_root)
        self.rule = rule
        self.files: list[str] = []
        self.skipped: list[SkippedFile] = []
        self._seen_dirs: dict[tuple[int, int], str] = {}
        self._seen_files: dict[tuple[int, int], str] = {}
        # Symlinks wait until every real entry is walked, so a real folder always keeps its own
        # path and a link to it is the one reported as a duplicate.
        self._links: list[tuple[os.DirEntry[str], str, tuple[tuple[int, int], ...], str]] = []

    def run(self) -> None:
        if not self.root.is_dir():
            return
        self._dir(self.root, "", (), self.real_root)
        while self._links:
            entry, path, ancestors, real_parent = self._links.pop(0)
            self._entry(entry, path, ancestors, real_parent, deferred=True)

    def _dir(self, folder: Path, rel: str, ancestors: tuple[tuple[int, int], ...],
             real: str) -> None:
        """``real``: the folder's real path (the path rule is asked about every entry's)."""
        try:
            info = os.stat(folder)
            key = (info.st_dev, info.st_ino)
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as e:
            self.skipped.append(
                SkippedFile(rel or ".", f"a folder that cannot be read: {_unreadable(e)}")
            )
            return
        self._seen_dirs.setdefault(key, rel)
        for entry in entries:
            if entry.name.startswith("."):
                continue
            path = f"{rel}/{entry.name}" if rel else entry.name
            self._entry(entry, path, (*ancestors, key), real)

    def _entry(
        self,
        entry: os.DirEntry[str],
        path: str,
        ancestors: tuple[tuple[int, int], ...],
        real_parent: str,
        deferred: bool = False,
    ) -> None:
        link = entry.is_symlink()
        if link and not deferred:
            self._links.append((entry, path, ancestors, real_parent))
            return
        if not link:  # its real path is its real folder's plus its name: no lookup needed
            real = os.path.join(real_parent, entry.name)
        else:
            try:
                real = os.path.realpath(entry.path, strict=True)
            except OSError as e:
                loop = e.errno == errno.ELOOP
                self.skipped.append(
                    SkippedFile(path, "a symlink loop" if loop else "a broken symlink")
                )
                return
        refused = self.rule.refusal(self.real_root, real)
        if refused is not None:
            self.skipped.append(SkippedFile(path, refused.reason))
            return
        try:
            info = os.stat(entry.path)
            is_dir = entry.is_dir(follow_symlinks=True)
        except OSError as e:
            self.skipped.append(SkippedFile(path, _unreadable(e)))
            return
        key = (info.st_dev, info.st_ino)
        if is_dir:
            if key in ancestors:
                self.skipped.append(
                    SkippedFile(path, "a symlink loop (it points to a folder that contains it)")
                )
            elif link and key in self._seen_dirs:
                self.skipped.append(
                    SkippedFile(
                        path, f"a symlink to {self._seen_dirs[key] or 'the vault'}, already read"
                    )
                )
            else:
                self._dir(Path(entry.path), path, ancestors, real)
            return
        kind = not_regular(info.st_mode)
        if kind is not None:  # a named pipe, socket or device: never opened
            self.skipped.append(SkippedFile(path, kind))
            return
        if link and key in self._seen_files:
            self.skipped.append(
                SkippedFile(path, f"a symlink to {self._seen_files[key]}, already read")
            )
            return
        self._seen_files.setdefault(key, path)
        self.files.append(path)


def vault_root(asked: Path) -> Path:
    """The nearest folder holding ``.obsidian/`` (so a single note resolves its links against
    the whole vault); else the folder asked for, or the folder of the file asked for.
    The course-material import uses it too, so a note gets one id from both imports."""
    start = asked if asked.is_dir() else asked.parent
    # Never the home folder or the file system root: walking either would list everything.
    too_wide = {Path(os.path.expanduser("~")).resolve(), Path(start.anchor)}
    for folder in (start, *start.parents)[:MAX_VAULT_DEPTH]:
        if folder.resolve() in too_wide and folder != start:
            break
        if (folder / ".obsidian").is_dir():
            return folder
    return start


def _unreadable(e: OSError) -> str:
    if e.errno in (errno.EACCES, errno.EPERM):
        return "unreadable (permission denied); give your user read access to import it"
    if e.errno == errno.ELOOP:
        return "a symlink loop"
    return f"unreadable ({e.strerror or type(e).__name__})"


def _size(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MB"
    if size >= 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size} bytes"


def _frontmatter(text: str) -> tuple[dict[str, Any], str | None]:
    block = split_frontmatter(text.replace("\r\n", "\n"))
    if block.yaml is None or not block.yaml.strip():
        return {}, None
    import yaml  # here, not at start-up: only a notes import parses frontmatter

    try:
        # libyaml's safe loader when PyYAML was built with it: the same safe subset, ~10x faster
        # (the pure-Python one was 3% of a 1,000-note import).
        loaded = yaml.load(block.yaml, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 2}" if mark is not None else ""
        return {}, f"the frontmatter is not valid YAML{where}; tags and aliases were ignored"
    if not isinstance(loaded, dict):
        return {}, "the frontmatter is not a list of keys; tags and aliases were ignored"
    return loaded, None
