"""A definition question is answered, without a model, by a passage that defines the term —
and only then: a passage that merely mentions the term, or a longer question that happens to
start with "what is", stays with the calibrated scores."""

from __future__ import annotations

import pytest
from studyhall.core.contracts.search import Chunk
from studyhall.core.library.retrieval.definitions import asked_term, defines, defining_hits


def _chunk(text: str, heading: str | None = None) -> Chunk:
    return Chunk(id="s:0", source_id="s", path="n.md", kind="note", title="n", anchor="",
                 text=text, heading=heading)


@pytest.mark.parametrize("question, term", [
    ("What is a backlink?", "backlink"),
    ("what's the generational hypothesis", "generational hypothesis"),
    ("Define idempotent.", "idempotent"),
    ("What does idempotent mean?", "idempotent"),
    ("What are closures?", "closures"),
    ("What is meant by tail recursion?", "tail recursion"),
])
def test_the_asked_term_is_found(question: str, term: str) -> None:
    assert asked_term(question) == term


@pytest.mark.parametrize("question", [
    "Why does the sweep phase free objects?",
    "What is the time complexity of Dijkstra's algorithm with a binary heap on sparse graphs?",
    "What?", "What is 42?", "",
])
def test_other_questions_ask_no_term(question: str) -> None:
    assert asked_term(question) is None


@pytest.mark.parametrize("text, heading", [
    ("Closure: a function bundled with the variables of its scope.", None),
    ("Some intro. A closure is a function that keeps its scope.", None),
    ("Closures (in JavaScript) are functions with their scope.", None),
    ("- **Closure** — a function with its scope.", None),
    ("Open it from the command palette.", "Closures"),
])
def test_a_defining_passage_defines(text: str, heading: str | None) -> None:
    assert defines(_chunk(text, heading), "closure")


@pytest.mark.parametrize("text", [
    "We pass a closure to map, which calls it once per item.",
    "Enclosure: a fenced area.",
    "The closure of a set under an operation is the smallest superset.",
])
def test_a_mention_is_not_a_definition(text: str) -> None:
    assert not defines(_chunk(text), "closure")


def test_only_the_passages_that_define_are_cited_best_first() -> None:
    chunks = [_chunk("We pass a closure to map."), _chunk("Closure: a function with its scope."),
              _chunk("A closure is a function value.")]
    assert defining_hits("What is a closure?", chunks) == (1, 2)
    assert defining_hits("Why use a closure?", chunks) == ()


def test_hostile_passages_are_scanned_quickly() -> None:
    import time
    text = ("closure " * 40_000) + ("(" * 20_000)
    started = time.perf_counter()
    defines(_chunk(text), "closure")
    assert time.perf_counter() - started < 5
