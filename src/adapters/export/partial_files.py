"""Export files written whole or not at all, through a hidden ``.<name>.<pid>.<random>.partial``
beside the target; and the sweep that removes the partials a killed export left.

A partial is recognised by its whole name — a leading dot, the target's name, the writer's pid
and ``tempfile``'s eight random characters, ``.partial`` — and only in the folder the export
writes to, so a learner's own file is never taken for one. It is stale once its writer is gone
(POSIX: the pid is not running) or, where a pid cannot be probed safely (Windows: ``os.kill``
would end the process), once it is an hour old. A partial named before the pid was part of the
name (``.<name>.<random>.partial``) is stale as soon as it is seen.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger("studyhall.export")

SUFFIX = ".partial"
_STALE_SECONDS = 3600  # no export spends an hour on one file
_PARTIAL = re.compile(r"\.(?P<target>.+?)(?:\.(?P<pid>[0-9]{1,10}))?\.[a-z0-9_]{8}\.partial")


def partial_path(target: Path) -> Path:
    """A new, empty partial for ``target`` in its folder (the caller writes, then replaces)."""
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.{os.getpid()}.",
                                suffix=SUFFIX)
    os.close(fd)
    return Path(name)


def write_whole(target: Path, data: bytes) -> None:
    """``target`` holds ``data`` whole, or is as it was (a kill leaves at most a partial)."""
    replace_with(target, lambda partial: partial.write_bytes(data))


def replace_with(target: Path, write: Callable[[Path], object]) -> None:
    """``write`` the partial, then move it over ``target``; on any failure it is removed."""
    partial = partial_path(target)
    try:
        write(partial)
        os.replace(partial, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        raise


def sweep_partials(folder: Path, ours: Callable[[str], bool]) -> int:
    """Remove the stale partials in ``folder`` whose target name ``ours`` accepts; how many."""
    try:
        entries = list(os.scandir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return 0
    removed = 0
    for entry in entries:
        m = _PARTIAL.fullmatch(entry.name)
        if m is None or not ours(m.group("target")) or not entry.is_file(follow_symlinks=False):
            continue
        if not _stale(entry, m.group("pid")):
            continue  # an export running alongside is still writing it
        try:
            os.unlink(entry.path)
            removed += 1
        except OSError as e:  # gone already, or not ours to remove: leave it
            log.debug("could not remove the stale partial %s: %s", entry.path, e)
    if removed:
        log.info("[export] removed %d partial file(s) an interrupted export left in %s",
                 removed, folder)
    return removed


def _stale(entry: os.DirEntry[str], pid: str | None) -> bool:
    if pid is None:
        return True  # named by an earlier version, which wrote no pid: nothing still owns it
    if os.name == "nt" or int(pid) == os.getpid():
        try:
            return time.time() - entry.stat(follow_symlinks=False).st_mtime > _STALE_SECONDS
        except OSError:
            return False
    return not _pid_alive(int(pid))


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # someone else's live process (or not a pid at all): keep the file
    return True
