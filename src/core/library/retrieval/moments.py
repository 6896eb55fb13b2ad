"""Moments inside a transcript window: the second at which a piece of its text begins (the cue
holding it), and the part of the window said before a given second. Pure functions over the
window's ``cues``; a window indexed without them answers only for its own start."""

from __future__ import annotations

from dataclasses import replace

from studyhall.core.contracts.search import Chunk
from studyhall.core.library.retrieval.chunking import split_sentences


def moment_of(chunk: Chunk, offset: int) -> float | None:
    """The start of the cue whose words hold character ``offset`` of ``chunk.text``: where a
    player should open for those words. None when the chunk is not timed, or when it has no
    cues and ``offset`` is past its first words (its start would be a guess)."""
    if chunk.start is None:
        return None
    if not chunk.cues:
        return chunk.start if offset == 0 else None
    starts = [start for at, start in chunk.cues if at <= offset]
    return starts[-1] if starts else chunk.start


def said_before(chunk: Chunk, t: float) -> Chunk | None:
    """The part of a transcript window said before second ``t``: the whole window when it ends
    by then, cut before the first cue starting at or after ``t``, or None when none of its
    words came before ``t``. A window without cues counts only once it has ended."""
    if chunk.start is None or chunk.start >= t:
        return None
    if chunk.end is not None and chunk.end <= t:
        return chunk
    if not chunk.cues:
        return None
    cut = next((at for at, start in chunk.cues if start >= t), None)
    if cut is None:  # ``t`` falls inside the last cue: all of the window has begun
        return chunk
    text = chunk.text[:cut].rstrip()
    return replace(chunk, text=text, end=t, sentences=split_sentences(text),
                   cues=tuple(c for c in chunk.cues if c[0] < cut))
