"""Transcripts made from audio/video, cached as WebVTT under ``<data>/transcripts/<sha256>.vtt``
(keyed by the media file's bytes), and read back as the media file's own transcript."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path
from typing import IO

from studyhall.adapters.sources._files import ROOT_ONLY, PathRule, Refused, title_from_path
from studyhall.adapters.sources.transcript import read_transcript
from studyhall.core.contracts.material import (
    NEEDS_TRANSCRIPTION,
    MaterialFile,
    Segment,
    SkippedFile,
)


def media_hash(full: Path) -> tuple[str, int]:
    """sha256 and size of a (possibly large) media file, read in blocks."""
    with full.open("rb") as f:
        return _digest(f)


def _digest(f: IO[bytes]) -> tuple[str, int]:
    digest = hashlib.sha256()
    size = 0
    while block := f.read(1 << 20):
        digest.update(block)
        size += len(block)
    return digest.hexdigest(), size


def _stamp(seconds: float) -> str:
    millis = round(max(seconds, 0.0) * 1000)
    h, rest = divmod(millis, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}.{ms:03d}"


def write_vtt(cache_dir: Path, content_hash: str, segments: list[Segment]) -> Path:
    lines = ["WEBVTT", ""]
    for seg in segments:
        words = " ".join(seg.text.split())
        if words:
            start = seg.start or 0.0
            end = max(seg.end if seg.end is not None else start, start)
            lines += [f"{_stamp(start)} --> {_stamp(end)}", words.replace("-->", "->"), ""]
    cache_dir.mkdir(parents=True, exist_ok=True)
    target = cache_dir / f"{content_hash}.vtt"
    partial = target.with_suffix(".vtt.part")
    partial.write_text("\n".join(lines), encoding="utf-8")
    partial.replace(target)  # a crash mid-write never leaves a half transcript in the cache
    return target


def cached_transcript(cache_dir: Path, root: str, path: str,
                      rule: PathRule = ROOT_ONLY) -> MaterialFile | SkippedFile:
    """The cached transcript of ``root/path`` as that file's transcript (the media plays
    beside it), or ``SkippedFile(path, NEEDS_TRANSCRIPTION)`` when its bytes were never
    transcribed. The media file is read only as the path rule allows; the cache is the app's
    own (inside the data folder), read with a rule of its own."""
    try:
        opened = rule.open(root, path)
        if isinstance(opened, Refused):
            return SkippedFile(path, opened.reason)
        with opened[0] as fh:
            content_hash, size = _digest(fh)
    except OSError as e:
        return SkippedFile(path, f"could not be read ({e.strerror or e})")
    if not (cache_dir / f"{content_hash}.vtt").is_file():
        return SkippedFile(path, NEEDS_TRANSCRIPTION)
    read = read_transcript(str(cache_dir), f"{content_hash}.vtt", ROOT_ONLY)
    if isinstance(read, SkippedFile):
        return SkippedFile(path, f"its transcript could not be used ({read.reason})")
    return dataclasses.replace(read, path=path, title=title_from_path(path), size=size,
                               content_hash=content_hash, media=path)
