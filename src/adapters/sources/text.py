"""Plain text (``.txt``) and Markdown course text: paragraphs, under headings when present.

A Markdown note that ``studyhall export markdown`` wrote (frontmatter ``studyhall: export``) is
skipped: its text is the graph's own, already there — indexing it would make Ask cite the
learner's graph back to them as if it were new material.
"""

from __future__ import annotations

from studyhall.adapters.sources._files import (
    MAX_TEXT_BYTES,
    ROOT_ONLY,
    PathRule,
    decode_text,
    read_bytes,
    title_from_path,
)
from studyhall.core.contracts.material import MaterialFile, Segment, SkippedFile
from studyhall.core.library.export.marker import MARK_KEY, SKIP_REASON, is_exported
from studyhall.core.library.retrieval.chunking import markdown_segments
from studyhall.core.library.sources.notes import split_frontmatter


def read_text(root: str, path: str, rule: PathRule = ROOT_ONLY) -> MaterialFile | SkippedFile:
    raw = read_bytes(root, path, MAX_TEXT_BYTES, rule)
    if isinstance(raw, SkippedFile):
        return raw
    text = decode_text(raw)
    if isinstance(text, SkippedFile):
        return text
    if not text.strip():
        return SkippedFile(path, "an empty file")
    markdown = path.lower().endswith((".md", ".markdown"))
    if markdown and _exported(text):
        return SkippedFile(path, SKIP_REASON)
    segments = markdown_segments(text) if markdown else (Segment(text.strip()),)
    title = title_from_path(path)
    if markdown and segments and segments[0].heading:
        title = segments[0].heading  # a leading heading names the document
    return MaterialFile(
        path=path, kind="note" if markdown else "text", title=title, segments=tuple(segments),
        size=len(raw.data), content_hash=raw.content_hash,
    )


def _exported(text: str) -> bool:
    """The note carries the export's mark (the YAML is parsed only when it may)."""
    block = split_frontmatter(text.replace("\r\n", "\n")).yaml
    if block is None or MARK_KEY not in block:
        return False
    import yaml  # here, not at start-up: only an exported note gets this far

    try:
        meta = yaml.safe_load(block)
    except yaml.YAMLError:
        return False
    return isinstance(meta, dict) and is_exported(meta)
