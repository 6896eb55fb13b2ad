"""Crash-safe whole-file writes: a kill at any instant leaves the old file or the new one.

The new bytes go to a temp file in the same folder (same file system, so the rename is atomic),
are fsynced, renamed over the target, and the folder is fsynced so the rename itself survives
a power cut. A failure removes the temp file and leaves the previous file untouched. Temp files
of a killed writer are named after its pid and swept by the next writer.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import time
from pathlib import Path

log = logging.getLogger(__name__)

_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
TEMP_SUFFIX = ".tmp"
_STALE_SECONDS = 3600.0  # where we cannot ask whether a pid lives, a temp this old is stale


def write_all(fd: int, data: bytes) -> None:
    """``os.write`` until every byte is written (a write may be partial)."""
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def fsync_dir(folder: Path) -> None:
    """Make a rename or a new file in ``folder`` durable. A no-op where folders cannot be opened."""
    if os.name == "nt":
        return
    fd = os.open(folder, os.O_RDONLY | _CLOEXEC)
    try:
        os.fsync(fd)
    except OSError as e:
        # Some file systems (and some network mounts) do not support fsync on a folder.
        if e.errno not in (22, 95):  # EINVAL, EOPNOTSUPP
            raise
    finally:
        os.close(fd)


def ensure_dir(folder: Path) -> None:
    """Create ``folder`` (and parents) durably: each new folder's entry is fsynced in its parent.
    A new folder is its owner's only (0700): the data folder holds chats and maybe keys."""
    if folder.is_dir():
        return
    missing: list[Path] = []
    cur = folder
    while not cur.exists():
        missing.append(cur)
        if cur.parent == cur:
            break
        cur = cur.parent
    for path in reversed(missing):
        with contextlib.suppress(FileExistsError):
            path.mkdir(mode=0o700)
        fsync_dir(path.parent)


def _temp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}{TEMP_SUFFIX}")


def atomic_write_bytes(path: Path, data: bytes, *, mode: int = 0o600) -> None:
    """Replace ``path`` with ``data`` atomically and durably; raises ``OSError`` on failure.

    On any failure (disk full, permission, interrupt) the temp file is removed and the previous
    content of ``path`` is untouched.
    """
    path = Path(path)
    ensure_dir(path.parent)
    tmp = _temp_name(path)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY | _CLOEXEC, mode)
    try:
        try:
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    try:
        fsync_dir(path.parent)
    except OSError as e:
        # The new file is in place; only its survival of a power cut is unconfirmed. Raising
        # here would tell the caller nothing changed, which is false.
        log.warning("saved %s, but could not flush its folder to disk: %s", path, e)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's live process
    return True


def sweep_temp_files(folder: Path) -> int:
    """Remove temp files left by writers that died mid-write; returns how many were removed.

    A temp file is stale when its writer's pid is gone (POSIX), or, where pids cannot be
    probed safely (Windows), when it is older than an hour. Live writers' temps are kept.
    """
    try:
        entries = list(os.scandir(folder))
    except FileNotFoundError:
        return 0
    removed = 0
    now = time.time()
    for entry in entries:
        name = entry.name
        if not (name.startswith(".") and name.endswith(TEMP_SUFFIX)):
            continue
        parts = name[: -len(TEMP_SUFFIX)].rsplit(".", 2)
        if len(parts) != 3 or not parts[1].isdigit():
            continue
        pid = int(parts[1])
        if os.name == "nt":
            try:
                stale = now - entry.stat().st_mtime > _STALE_SECONDS
            except OSError:
                continue
        else:
            stale = pid != os.getpid() and not _pid_alive(pid)
        if stale:
            try:
                os.unlink(entry.path)
                removed += 1
            except OSError as e:  # not ours to remove, or already gone: leave it
                log.debug("could not remove stale temp file %s: %s", entry.path, e)
    if removed:
        log.info("removed %d temp file(s) left by an interrupted write in %s", removed, folder)
    return removed
