"""The sentence of a passage nearest a question: the one holding most of the question's content
words. A learner reading passages with no written answer looks there first. It points, it never
claims: the window marks it, and the case still says whether anything answers the question."""

from __future__ import annotations

from studyhall.core.contracts.search import Chunk
from studyhall.core.library.learner.key_terms import fold, is_content_word, words

LEAST_SHARED = 2  # content words the sentence must share (fewer when the question has fewer)


def _content_terms(text: str) -> set[str]:
    return {fold(w) for w in words(text) if is_content_word(w)}


def closest_sentence(question: str, chunk: Chunk) -> str | None:
    """The first of the chunk's sentences sharing the most of the question's content words, or
    None when none shares enough (a passage found only by meaning points nowhere)."""
    wanted = _content_terms(question)
    need = min(LEAST_SHARED, len(wanted))
    best, shared = None, 0
    for sentence in chunk.sentences:
        got = len(wanted & _content_terms(sentence))
        if got > shared:
            best, shared = sentence, got
    return best if need and shared >= need else None
