"""Plain text (``.txt``) and Markdown course text: paragraphs, under headings when present."""

from __future__ import annotations

from studyhall.adapters.sources._files import (
    MAX_TEXT_BYTES,
    decode_text,
    read_bytes,
    title_from_path,
)
from studyhall.core.contracts.material import MaterialFile, Segment, SkippedFile
from studyhall.core.library.retrieval.chunking import markdown_segments


def read_text(root: str, path: str) -> MaterialFile | SkippedFile:
    raw = read_bytes(root, path, MAX_TEXT_BYTES)
    if isinstance(raw, SkippedFile):
        return raw
    text = decode_text(raw)
    if isinstance(text, SkippedFile):
        return text
    if not text.strip():
        return SkippedFile(path, "an empty file")
    markdown = path.lower().endswith((".md", ".markdown"))
    segments = markdown_segments(text) if markdown else (Segment(text.strip()),)
    title = title_from_path(path)
    if markdown and segments and segments[0].heading:
        title = segments[0].heading  # a leading heading names the document
    return MaterialFile(
        path=path, kind="note" if markdown else "text", title=title, segments=tuple(segments),
        size=len(raw.data), content_hash=raw.content_hash,
    )
