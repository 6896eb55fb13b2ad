"""Translate OS failures into ``core.errors.StoreError``, with a message a user can act on.

Every file adapter wraps its I/O in ``translated(action)``; the message names what could not be
done, why (with the errno name, so a bug report is precise) and what to do about it, e.g.
"Could not save chat chat_1: the disk is full (ENOSPC). Free some space and retry; nothing was
changed."
"""

from __future__ import annotations

import errno
from collections.abc import Iterator
from contextlib import contextmanager

from studyhall.core.errors import StoreError

# errno -> (what happened, what to do). "{path}" is filled with the file the OS complained about.
_REASONS: dict[int, tuple[str, str]] = {
    errno.ENOSPC: ("the disk is full", "Free some space and retry"),
    errno.EDQUOT: ("your disk quota is used up", "Free some space and retry"),
    errno.EACCES: (
        "permission denied on {path}",
        "Make sure your user can write to the data folder, then retry",
    ),
    errno.EPERM: (
        "the operation is not permitted on {path}",
        "Make sure your user owns the data folder, then retry",
    ),
    errno.EROFS: (
        "the data folder is on a read-only file system",
        "Point STUDYHALL_DATA_DIR at a writable folder",
    ),
    errno.EIO: ("the disk reported an input/output error", "Check the disk's health, then retry"),
    errno.EMFILE: ("too many files are open", "Close some programs or restart Studyhall"),
    errno.ENFILE: ("too many files are open system-wide", "Close some programs, then retry"),
    errno.ENAMETOOLONG: ("the file name is too long", "Use a shorter data folder path"),
    errno.ENOTDIR: (
        "a file is in the way where a folder should be ({path})",
        "Move that file aside, then retry",
    ),
    errno.EISDIR: (
        "a folder is in the way where a file should be ({path})",
        "Move that folder aside, then retry",
    ),
}


def describe_os_error(exc: OSError) -> str:
    """'<what happened> (<ERRNO>). <What to do>' for a known errno, else the OS's own words."""
    code = exc.errno if isinstance(exc.errno, int) else None
    name = errno.errorcode.get(code, "") if code is not None else ""
    path = exc.filename if exc.filename is not None else "a file in the data folder"
    if code in _REASONS:
        what, todo = _REASONS[code]
        return f"{what.format(path=path)} ({name}). {todo}"
    detail = exc.strerror or str(exc) or type(exc).__name__
    tag = f" ({name})" if name else ""
    return f"{detail}{tag}. Check the data folder, then retry"


def store_error(action: str, exc: OSError, *, write: bool = True) -> StoreError:
    """``Could not <action>: <reason>; nothing was changed.`` (the tail only for writes)."""
    tail = "; nothing was changed." if write else "."
    return StoreError(f"Could not {action}: {describe_os_error(exc)}{tail}")


@contextmanager
def translated(action: str, *, write: bool = True) -> Iterator[None]:
    """Re-raise any ``OSError`` inside the block as a ``StoreError`` about ``action``."""
    try:
        yield
    except StoreError:
        raise
    except OSError as e:
        raise store_error(action, e, write=write) from e
