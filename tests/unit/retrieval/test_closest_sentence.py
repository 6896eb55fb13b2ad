"""The sentence a learner reads first when no answer is written: the one holding most of the
question's content words, or none when no sentence shares enough of them."""

from __future__ import annotations

from studyhall.core.contracts.search import Chunk
from studyhall.core.library.retrieval.closest import closest_sentence

SENTENCES = ("Mark and sweep marks every object reachable from the roots.",
             "The sweep phase then frees every unmarked object.",
             "Reference counting cannot reclaim cycles.")


def _chunk(*sentences: str) -> Chunk:
    return Chunk("s:1", "s", "gc.vtt", "transcript", "GC", "t=0", " ".join(sentences),
                 sentences=sentences)


def test_the_sentence_sharing_most_content_words_is_closest():
    # "frees" and "free" are one word; "what", "does", "the" count for nothing.
    assert closest_sentence("What does the sweep phase free?", _chunk(*SENTENCES)) == SENTENCES[1]
    assert closest_sentence("Why can reference counting not reclaim cycles?",
                            _chunk(*SENTENCES)) == SENTENCES[2]


def test_ties_go_to_the_first_sentence():
    chunk = _chunk("A heap is a tree.", "A heap is stored in an array.")
    assert closest_sentence("heap array tree?", chunk) == "A heap is a tree."


def test_one_shared_word_is_not_enough_and_nothing_is_pointed_at():
    assert closest_sentence("When are objects promoted?", _chunk(*SENTENCES)) is None  # "object" only
    assert closest_sentence("What is the capital of Peru?", _chunk(*SENTENCES)) is None
    assert closest_sentence("?", _chunk(*SENTENCES)) is None  # no content word at all
    assert closest_sentence("sweep phase", _chunk()) is None  # a chunk with no sentences


def test_a_one_word_question_needs_only_that_word():
    assert closest_sentence("Cycles?", _chunk(*SENTENCES)) == SENTENCES[2]
