"""Shared file reading for course readers: regular files only, size limit, binary sniff, UTF-8,
content hash."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from studyhall.adapters.sources.path_rule import (
    ROOT_ONLY,
    PathRule,
    Refused,
    nonblocking,
    not_regular,
)
from studyhall.core.contracts.material import SkippedFile

__all__ = ["MAX_PDF_BYTES", "MAX_TEXT_BYTES", "ROOT_ONLY", "PathRule", "RawFile", "Refused", "decode_text",
           "nonblocking", "not_regular", "read_bytes", "title_from_path"]

MAX_TEXT_BYTES = 5 * 1024 * 1024  # transcripts, text, Markdown
MAX_PDF_BYTES = 100 * 1024 * 1024


@dataclass(frozen=True)
class RawFile:
    path: str
    data: bytes
    content_hash: str


def read_bytes(root: str, path: str, max_bytes: int,
               rule: PathRule = ROOT_ONLY) -> RawFile | SkippedFile:
    """``root/path`` whole, when the path rule lets it be read and it is not over ``max_bytes``."""
    try:
        opened = rule.open(root, path)
        if isinstance(opened, Refused):
            return SkippedFile(path, opened.reason)
        fh, info = opened
        with fh:
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
