"""The evidence rule, both ways: a quote is found when copying only changed its typography, and
is refused when it was made up; an answer is kept when its quote says it, dropped when it
adds words of its own or negates what the quote says."""

from __future__ import annotations

import pytest
from studyhall.core.workbench.evidence import (
    backing_problem,
    evidence_problem,
    find_quote,
    normalise,
)

HEAPS = ("Heaps are stored in arrays because a complete tree has no gaps. In a max-heap the "
         "root holds the largest key. Insertion sifts the new key up, so it costs O(log n).")
SORTS = "Quicksort is not stable: equal keys may change order. Merge sort is stable."
TEXTS = ("A heap is a complete binary tree.", HEAPS, SORTS)


@pytest.mark.parametrize("quote", [
    "In a max-heap the root holds the largest key",
    "“in a MAX-HEAP  the root\nholds the largest key.”",  # quotes, case, whitespace
    "Heaps are stored in arrays … no gaps",  # an elision: both pieces, in order
    "Heaps are stored in arrays [...] a complete tree",
    "A heap is a *complete* binary tree",  # emphasis added by the writer
    "Quicksort is not stable — equal keys may change order".replace(" — ", ": "),
])
def test_a_copied_quote_is_found_in_its_text(quote: str) -> None:
    assert find_quote(quote, TEXTS) is not None


@pytest.mark.parametrize("quote", [
    "In a min-heap the root holds the smallest key",  # not what the material says
    "no gaps ... Heaps are stored in arrays",  # the pieces out of order
    "the root",  # too short to be a quote
    "...",
    "",
])
def test_an_invented_or_empty_quote_is_not_found(quote: str) -> None:
    assert find_quote(quote, TEXTS) is None


def test_a_whole_short_text_may_be_quoted() -> None:
    assert find_quote("Heaps.", ("Heaps",)) == "Heaps"


def test_normalise_folds_typography() -> None:
    assert normalise("It’s  “A”\u00a0—\tb…") == "it's \"a\" - b..."


@pytest.mark.parametrize("answer, quote", [
    ("The largest key.", "In a max-heap the root holds the largest key"),
    ("A complete binary tree stored in an array.",
     "Heaps are stored in arrays because a complete tree has no gaps"),
    ("O(log n).", "so it costs O(log n)"),  # no content words: the answer itself is quoted
    ("It is not stable.", "Quicksort is not stable"),
    ("Because a complete tree has no gaps.", "a complete tree has no gaps"),
])
def test_an_answer_its_quote_states_is_backed(answer: str, quote: str) -> None:
    assert backing_problem(answer, quote, HEAPS + " " + SORTS) is None


@pytest.mark.parametrize("answer, quote, why", [
    ("The smallest key.", "In a max-heap the root holds the largest key",
     "says what its evidence does not (smallest)"),
    ("Quicksort is stable.", "Quicksort is not stable", "contradicts its evidence"),
    ("Merge sort is not stable.", "Merge sort is stable", "contradicts its evidence"),
    ("Heaps are balanced search trees ordered left to right.",
     "Heaps are stored in arrays because a complete tree has no gaps", "not backed"),
    ("O(n).", "so it costs O(log n)", "not in its evidence"),
])
def test_an_answer_its_quote_does_not_state_is_not_backed(answer: str, quote: str,
                                                           why: str) -> None:
    problem = backing_problem(answer, quote, HEAPS + " " + SORTS)
    assert problem is not None and why in problem


def test_evidence_is_required_only_when_there_was_material_to_quote() -> None:
    assert evidence_problem("A tree.", None, TEXTS) == "no evidence quoted"
    assert evidence_problem("A tree.", "  ", TEXTS) == "no evidence quoted"
    assert evidence_problem("A tree.", None, ()) is None  # nothing was given to quote
    assert evidence_problem("A tree.", "A heap is a tree of sorts", ()) == \
        "its evidence is not in the material"
    assert evidence_problem("A complete binary tree.", "A heap is a complete binary tree",
                            TEXTS) is None


def test_a_quote_copied_word_for_word_from_the_note_is_found_with_or_without_its_markup() -> None:
    """Issue 30 item 6: a flashcard quoting the note verbatim was dropped as "not in the
    material" — the writer saw the note's Markdown, the matcher its rendered words."""
    from studyhall.core.workbench.evidence import evidence_problem, find_quote

    note = ("## How backlinks work\n- **Backlinks** show every note that links to the one you "
            "are reading, in the [[Backlinks|backlinks pane]].\n> ==Unlinked mentions== are "
            "notes that name it without a link, see [the help](https://help.obsidian.md).")
    rendered = ("Backlinks show every note that links to the one you are reading, in the "
                "backlinks pane. Unlinked mentions are notes that name it without a link, see the help.")
    as_written = ("- **Backlinks** show every note that links to the one you are reading, in the "
                  "[[Backlinks|backlinks pane]].")
    for quote in (as_written, rendered.split(". ")[0]):
        for texts in ([note], [rendered]):
            assert find_quote(quote, texts) is not None, (quote, texts)
    assert evidence_problem("Backlinks show every note that links to the open one.",
                            as_written, [rendered]) is None
    assert find_quote("Forward links show every note this one links to.", [note]) is None


def test_note_markup_is_read_in_linear_time() -> None:
    import time

    from studyhall.core.workbench.evidence import normalise

    for hostile in ("[[" * 50_000, "[" * 40_000 + "](" * 40_000, "- " * 60_000, "==" * 60_000):
        started = time.perf_counter()
        normalise(hostile)
        assert time.perf_counter() - started < 5
