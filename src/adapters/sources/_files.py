"""Shared file reading for course readers: regular files only, size limit, binary sniff, UTF-8,
content hash."""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from studyhall.core.contracts.material import SkippedFile

MAX_TEXT_BYTES = 5 * 1024 * 1024  # transcripts, text, Markdown
MAX_PDF_BYTES = 100 * 1024 * 1024


@dataclass(frozen=True)
class RawFile:
    path: str
    data: bytes
    content_hash: str


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


def nonblocking(path: str, flags: int) -> int:
    """An ``opener`` for ``open()`` that never waits: a FIFO swapped in after the scan opens at
    once (and is then refused by its ``fstat``) instead of blocking until someone writes."""
    return os.open(path, flags | getattr(os, "O_NONBLOCK", 0))


def read_bytes(root: str, path: str, max_bytes: int) -> RawFile | SkippedFile:
    full = Path(root, *path.split("/"))
    try:
        with open(full, "rb", opener=nonblocking) as fh:
            info = os.fstat(fh.fileno())  # the file opened, not the name looked at before
            kind = not_regular(info.st_mode)
            if kind is not None:
                return SkippedFile(path, kind)
            if info.st_size > max_bytes:
                return SkippedFile(path, f"too large ({info.st_size / 1e6:.1f} MB; the limit is {max_bytes / 1e6:.0f} MB)")
            data = fh.read(max_bytes + 1)
    except PermissionError:
        return SkippedFile(path, "not readable (permission denied); check the file's permissions")
    except OSError as e:
        return SkippedFile(path, f"could not be read ({e.strerror or e})")
    if len(data) > max_bytes:
        return SkippedFile(path, f"too large (over the {max_bytes / 1e6:.0f} MB limit)")
    return RawFile(path, data, hashlib.sha256(data).hexdigest())


def decode_text(raw: RawFile) -> str | SkippedFile:
    if b"\x00" in raw.data[:8192]:
        return SkippedFile(raw.path, "a binary file, not text")
    try:
        return raw.data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        return SkippedFile(raw.path, f"not valid UTF-8 (bad byte at offset {e.start}); save it as UTF-8")


def title_from_path(path: str) -> str:
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return stem.replace("_", " ").replace("-", " ").strip() or stem
