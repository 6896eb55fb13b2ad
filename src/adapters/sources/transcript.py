"""Lecture transcripts (``.vtt`` WebVTT, ``.srt`` SubRip) read into timed cues with webvtt-py.

A video file with the same name beside the transcript (``lecture.mp4`` next to ``lecture.vtt``),
or a ``lecture.url`` file holding a link, is recorded as the source's media.
"""

from __future__ import annotations

import io
import os
import re

from studyhall.adapters.sources._files import (
    MAX_TEXT_BYTES,
    ROOT_ONLY,
    PathRule,
    Refused,
    decode_text,
    read_bytes,
    title_from_path,
)
from studyhall.core.contracts.material import MaterialFile, Segment, SkippedFile, pairing_stem

VIDEO_SUFFIXES = (".mp4", ".webm", ".mkv", ".mov", ".m4v", ".ogv", ".mp3", ".m4a")
_URL = re.compile(r"https?://[^\s\"'<>]+")


def _seconds(stamp: str) -> float:
    parts = stamp.replace(",", ".").split(":")
    total = 0.0
    for part in parts:
        total = total * 60 + float(part)
    return total


def find_media(root: str, path: str, rule: PathRule = ROOT_ONLY) -> str | None:
    """A video beside the transcript (root-relative), else the URL in ``<stem>.url``; either
    only when the path rule lets it be read (a link out of the root is not media)."""
    folder, _, name = path.rpartition("/")
    stem = name.rsplit(".", 1)[0] if "." in name else name
    beside = f"{folder}/{stem}" if folder else stem
    # ``X.eng.vtt`` plays ``X.eng.mp4`` first, else ``X.mp4`` (captions carry a language tag
    # more often than their recording does).
    stems = dict.fromkeys((stem, pairing_stem(name)))
    for candidate_stem in stems:
        at = f"{folder}/{candidate_stem}" if folder else candidate_stem
        for suffix in VIDEO_SUFFIXES:
            for candidate in (at + suffix, at + suffix.upper()):
                located = rule.locate(root, candidate)
                if isinstance(located, str) and os.path.isfile(located):
                    return candidate
    try:
        opened = rule.open(root, beside + ".url")
    except OSError:
        return None
    if isinstance(opened, Refused):
        return None
    fh, info = opened
    with fh:
        if info.st_size >= 64 * 1024:
            return None
        found = _URL.search(fh.read().decode("utf-8", errors="replace"))
    return found.group(0) if found else None


def read_transcript(root: str, path: str, rule: PathRule = ROOT_ONLY) -> MaterialFile | SkippedFile:
    # Imported here, not at start-up: only an import of course material reads transcripts.
    import webvtt
    from webvtt.errors import MalformedCaptionError, MalformedFileError

    raw = read_bytes(root, path, MAX_TEXT_BYTES, rule)
    if isinstance(raw, SkippedFile):
        return raw
    text = decode_text(raw)
    if isinstance(text, SkippedFile):
        return text
    fmt = "srt" if path.lower().endswith(".srt") else "vtt"
    try:
        captions = webvtt.from_buffer(io.StringIO(text), format=fmt).captions
    except (MalformedFileError, MalformedCaptionError, ValueError, IndexError) as e:
        return SkippedFile(path, f"not a valid {fmt.upper()} transcript ({e}); check the cue timings")
    cues = []
    for cap in captions:
        words = " ".join(cap.text.split())
        if not words:
            continue
        start, end = _seconds(cap.start), _seconds(cap.end)
        if end < start:
            return SkippedFile(path, f"a cue ends before it starts ({cap.start} --> {cap.end})")
        cues.append(Segment(words, start=start, end=end))
    if not cues:
        return SkippedFile(path, f"a {fmt.upper()} file with no spoken text")
    cues.sort(key=lambda c: c.start or 0.0)
    return MaterialFile(
        path=path, kind="transcript", title=title_from_path(path), segments=tuple(cues),
        size=len(raw.data), content_hash=raw.content_hash, media=find_media(root, path, rule),
    )
