"""The one path rule every reader of imported files obeys: ``PathRule``.

A file is read only when its real path (every symlink resolved) is inside the real import root
and not inside a protected folder — Studyhall's own data folder (settings, keys, caches) —
even when the root holds that folder. The folder scans (notes and material), the single-file
import, the material and note readers, the transcriber and the reader/player routes all ask
this rule; a file is checked again once it is open (the real path of the open descriptor), so
a name swapped for a symlink between the look and the open is still refused.

Root-relative paths use ``/``. On POSIX ``:`` and ``\\`` are ordinary name characters (a note
``x:y.md`` is read like any other); on Windows they cannot be in a name, so a path holding one
(a drive, an alternate data stream) is refused. Where volumes ignore case (macOS, Windows)
paths are compared case-folded.
"""

from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO

PROTECTED = "a file in Studyhall's own data folder (settings, keys, caches); it is never imported"
_WINDOWS = os.name == "nt"
# macOS and Windows volumes ignore case by default, and the kernel's path of an open file has
# the case on disk where a typed path may not: there, paths are compared case-folded.
_FOLD = _WINDOWS or sys.platform == "darwin"


@dataclass(frozen=True)
class Refused:
    """Why a path is not read (a reason for the report: it never holds the file's content)."""

    reason: str


def _within(path: str, folder: str) -> bool:
    if _FOLD:
        path, folder = path.casefold(), folder.casefold()
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _parts(rel: str) -> list[str] | None:
    """``rel`` split on ``/``; ``None`` unless it is a plain relative path (no ``..``, no
    absolute path, no NUL, and on Windows no drive, stream or backslash)."""
    if not rel or "\x00" in rel or rel.startswith("/") or os.path.isabs(rel):
        return None
    parts = rel.split("/")
    if any(p in ("", ".", "..") for p in parts):
        return None
    if _WINDOWS and any(":" in p or "\\" in p for p in parts):
        return None
    return parts


@dataclass(frozen=True)
class PathRule:
    """``protected``: real paths of folders never read. ``place``: what the root is called in
    the reasons ("vault", "import root")."""

    protected: tuple[str, ...] = ()
    place: str = "import root"

    @classmethod
    def guarding(cls, *folders: str | Path) -> PathRule:
        """A rule that never reads anything inside ``folders`` (resolved now: a data folder
        reached through a symlink is protected by its real path)."""
        return cls(tuple(os.path.realpath(os.fspath(f)) for f in folders))

    def called(self, place: str) -> PathRule:
        """The same rule, naming the root ``place`` in its reasons."""
        return replace(self, place=place)

    def refusal(self, real_root: str, real: str) -> Refused | None:
        """Why the real path ``real`` may not be read under the real root (``None``: it may)."""
        if any(_within(real, folder) for folder in self.protected):
            return Refused(PROTECTED)
        if not _within(real, real_root):
            return Refused(f"a symlink pointing outside the {self.place}")
        return None

    def locate(self, root: str, rel: str) -> str | Refused:
        """The real path of ``root/rel`` when the rule lets it be read, else why not. Whether
        anything is there is the caller's business (``open`` says so)."""
        return self._locate(os.path.realpath(root), rel)

    def _locate(self, real_root: str, rel: str) -> str | Refused:
        parts = _parts(rel)
        if parts is None:
            return Refused(f"not a path inside the {self.place}")
        real = os.path.realpath(os.path.join(real_root, *parts))
        return self.refusal(real_root, real) or real

    def open(self, root: str, rel: str) -> tuple[IO[bytes], os.stat_result] | Refused:
        """``root/rel`` opened for reading (never waiting on a FIFO) with its ``fstat``, when
        the rule lets it be read and it is a regular file; else why not. An ``OSError`` (gone,
        permission denied) is the caller's to word. The caller closes the file."""
        real_root = os.path.realpath(root)
        located = self._locate(real_root, rel)
        if isinstance(located, Refused):
            return located
        fh = open(located, "rb", opener=nonblocking)  # noqa: SIM115 - handed to the caller
        try:
            info = os.fstat(fh.fileno())  # the file opened, not the name looked at before
            opened = _opened_path(fh.fileno(), located, info)
            why = (self.refusal(real_root, opened) if opened is not None
                   else Refused(f"it changed while being opened; import the {self.place} again"))
            kind = not_regular(info.st_mode) if why is None else None
            if kind is not None:
                why = Refused(kind)
        except BaseException:
            fh.close()
            raise
        if why is not None:
            fh.close()
            return why
        return fh, info


# The rule with no protected folder (confined to the root only): readers' default, and the
# transcript cache's (the app's own files). The app builds its rule with ``guarding(data)``.
ROOT_ONLY = PathRule()


def nonblocking(path: str, flags: int) -> int:
    """An ``opener`` for ``open()`` that never waits: a FIFO swapped in after a scan opens at
    once (and is then refused by its ``fstat``) instead of blocking until someone writes."""
    return os.open(path, flags | getattr(os, "O_NONBLOCK", 0))


def _opened_path(fd: int, located: str, info: os.stat_result) -> str | None:
    """The real path of the open file: from ``/proc`` (Linux) or ``F_GETPATH`` (macOS), which
    the kernel gives with every symlink resolved; else ``located`` when it still names the very
    file opened (``None`` when it does not)."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        pass
    try:
        import fcntl

        getpath = getattr(fcntl, "F_GETPATH", None)
        if getpath is not None:
            raw = fcntl.fcntl(fd, getpath, bytes(1024))
            return os.fsdecode(raw.split(b"\0", 1)[0])
    except (ImportError, OSError):
        pass
    try:
        now = os.stat(located)
    except OSError:
        return None
    return located if (now.st_dev, now.st_ino) == (info.st_dev, info.st_ino) else None


def not_regular(mode: int) -> str | None:
    """Why a file of this kind is not read (``None`` for a regular file, the only kind read:
    opening a named pipe waits for a writer forever, a device may never end)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISFIFO(mode):
        kind = "a named pipe (FIFO)"
    elif stat.S_ISSOCK(mode):
        kind = "a socket"
    elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        kind = "a device file"
    elif stat.S_ISDIR(mode):
        kind = "a folder"
    else:
        kind = "a special file"
    return f"{kind}, not a regular file; only regular files are imported"
