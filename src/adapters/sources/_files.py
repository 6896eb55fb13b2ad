"""Shared file reading for course readers: size limit, binary sniff, UTF-8, content hash."""

from __future__ import annotations

import hashlib
import os
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


def read_bytes(root: str, path: str, max_bytes: int) -> RawFile | SkippedFile:
    full = Path(root, *path.split("/"))
    try:
        size = os.stat(full).st_size
        if size > max_bytes:
            return SkippedFile(path, f"too large ({size / 1e6:.1f} MB; the limit is {max_bytes / 1e6:.0f} MB)")
        with open(full, "rb") as fh:
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
