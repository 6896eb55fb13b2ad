"""Structure-respecting chunks with deep links: cue windows for transcripts (``path#t=754``),
pages for PDFs (``path#page=12``), headings and paragraphs for notes and text
(``path#heading-slug``). A file small enough to be one chunk is linked by its bare path.

Pure functions: a reader's ``MaterialFile`` (or a note's text) in, ``Chunk`` records out.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from studyhall.core.contracts.material import MaterialFile, MaterialKind, Segment
from studyhall.core.contracts.search import Chunk

# Passage sizes, in words. Prose chunks stay close to a paragraph or section (what a citation
# should point at); transcript windows hold about 40-60 s of speech, so a moment is precise.
PROSE_MAX_WORDS = 300
TRANSCRIPT_WORDS = 110
TRANSCRIPT_MAX_SECONDS = 75.0

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


def slugify(heading: str) -> str:
    """GitHub-style anchor: lower case, punctuation dropped, spaces to hyphens."""
    text = unicodedata.normalize("NFKC", heading).strip().lower()
    text = re.sub(r"[^\w\- ]+", "", text)
    return re.sub(r"\s", "-", text) or "section"


def split_sentences(text: str) -> tuple[str, ...]:
    parts = (p.strip() for p in _SENTENCE_END.split(" ".join(text.split())))
    return tuple(p for p in parts if p)


def _words(text: str) -> int:
    return len(text.split())


# --- transcripts -----------------------------------------------------------------------------


def _transcript_chunks(file: MaterialFile) -> list[tuple[str, Segment, tuple[tuple[int, float], ...]]]:
    """Consecutive cues grouped into windows; the window's anchor is its first cue's start."""
    windows: list[list[Segment]] = []
    current: list[Segment] = []
    for cue in file.segments:
        if current:
            words = sum(_words(c.text) for c in current)
            span = (cue.end or cue.start or 0.0) - (current[0].start or 0.0)
            if words + _words(cue.text) > TRANSCRIPT_WORDS or span > TRANSCRIPT_MAX_SECONDS:
                windows.append(current)
                current = []
        current.append(cue)
    if current:
        windows.append(current)
    out = []
    for window in windows:
        start = window[0].start or 0.0
        end = window[-1].end if window[-1].end is not None else start
        merged = Segment(" ".join(c.text for c in window), start=start, end=end)
        out.append((f"t={int(start)}", merged, _cue_offsets(window)))
    return out


def _cue_offsets(window: Sequence[Segment]) -> tuple[tuple[int, float], ...]:
    """Where each cue's words begin in the window's joined text, with the cue's start."""
    out, at = [], 0
    for cue in window:
        out.append((at, cue.start if cue.start is not None else 0.0))
        at += len(cue.text) + 1  # the joining space
    return tuple(out)


# --- prose (pages, Markdown, text) ---------------------------------------------------------


def _pack(paragraphs: Iterable[str], limit: int = PROSE_MAX_WORDS) -> list[str]:
    """Greedy packing of whole paragraphs; a paragraph over the limit is split at sentences."""
    out: list[str] = []
    current: list[str] = []
    size = 0

    def flush() -> None:
        nonlocal current, size
        if current:
            out.append("\n\n".join(current))
        current, size = [], 0

    for para in paragraphs:
        n = _words(para)
        if n > limit:
            flush()
            buf: list[str] = []
            for sentence in split_sentences(para):
                if buf and _words(" ".join(buf)) + _words(sentence) > limit:
                    out.append(" ".join(buf))
                    buf = []
                buf.append(sentence)
            if buf:
                out.append(" ".join(buf))
            continue
        if current and size + n > limit:
            flush()
        current.append(para)
        size += n
    flush()
    return out


def _paragraphs(text: str) -> list[str]:
    return [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]


def markdown_sections(text: str) -> list[tuple[str | None, str]]:
    """(heading, body) pairs in order; frontmatter dropped, ``#`` inside code fences ignored."""
    lines = text.splitlines()
    if lines and lines[0].strip() == "---":
        for i in range(1, len(lines)):
            if lines[i].strip() in ("---", "..."):
                lines = lines[i + 1 :]
                break
    sections: list[tuple[str | None, list[str]]] = [(None, [])]
    fenced = False
    for line in lines:
        if _FENCE.match(line):
            fenced = not fenced
        match = None if fenced else _HEADING.match(line)
        if match:
            sections.append((match.group(2).strip(), []))
        else:
            sections[-1][1].append(line)
    return [(h, "\n".join(body).strip()) for h, body in sections if h or "\n".join(body).strip()]


def _heading_segments(segments: Sequence[Segment]) -> list[tuple[str, Segment]]:
    """Chunks under headings; the anchor is the heading's slug (numbered when repeated)."""
    out: list[tuple[str, Segment]] = []
    used: dict[str, int] = {}
    for seg in segments:
        anchor = ""
        if seg.heading:
            base = slugify(seg.heading)
            n = used.get(base, 0)
            used[base] = n + 1
            anchor = base if n == 0 else f"{base}-{n}"
        for piece in _pack(_paragraphs(seg.text)) or ([seg.heading] if seg.heading else []):
            out.append((anchor, Segment(piece, heading=seg.heading)))
    return out


def _page_segments(segments: Sequence[Segment]) -> list[tuple[str, Segment]]:
    out = []
    for seg in segments:
        for piece in _pack(_paragraphs(seg.text)):
            out.append((f"page={seg.page}", Segment(piece, page=seg.page)))
    return out


# --- entry points ------------------------------------------------------------------------------


def chunk_material(source_id: str, file: MaterialFile) -> list[Chunk]:
    pieces: list[tuple[str, Segment, tuple[tuple[int, float], ...]]]
    if file.kind == "transcript":
        pieces = _transcript_chunks(file)
    elif file.kind == "pdf":
        pieces = [(anchor, seg, ()) for anchor, seg in _page_segments(file.segments)]
    else:
        pieces = [(anchor, seg, ()) for anchor, seg in _heading_segments(file.segments)]
    return _build(source_id, file.path, file.kind, file.title, pieces)


def markdown_segments(text: str) -> tuple[Segment, ...]:
    return tuple(Segment(body, heading=h) for h, body in markdown_sections(text))


def _build(
    source_id: str, path: str, kind: MaterialKind, title: str,
    pieces: Sequence[tuple[str, Segment, tuple[tuple[int, float], ...]]],
) -> list[Chunk]:
    whole = len(pieces) == 1 and kind != "transcript"  # one chunk: the bare path is its link
    return [
        Chunk(
            id=f"{source_id}:{i}", source_id=source_id, path=path, kind=kind, title=title,
            anchor="" if whole else anchor, text=seg.text, heading=seg.heading,
            start=seg.start, end=seg.end, page=seg.page, sentences=split_sentences(seg.text),
            cues=cues,
        )
        for i, (anchor, seg, cues) in enumerate(pieces)
    ]


@dataclass(frozen=True)
class SourcePlace:
    """Where the learner is inside a source: a moment (seconds) or a page."""

    source_id: str
    t: float | None = None
    page: int | None = None
    at: str | None = None  # a note's heading slug


def chunk_at(chunks: Sequence[Chunk], position: SourcePlace) -> Chunk | None:
    """The chunk under the learner's position (the latest one starting at or before ``t``)."""
    mine = [c for c in chunks if c.source_id == position.source_id]
    if position.t is not None:
        timed = [c for c in mine if c.start is not None and c.start <= position.t]
        return timed[-1] if timed else (mine[0] if mine else None)
    if position.page is not None:
        paged = [c for c in mine if c.page == position.page]
        return paged[0] if paged else None
    if position.at is not None:
        headed = [c for c in mine if c.anchor == position.at]
        return headed[0] if headed else None
    return None
