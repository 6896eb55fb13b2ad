"""One scope grammar for ``make``, ``export anki`` and ``GET /api/export/anki``: every spelling,
the old ones as aliases, and refusals that say the grammar."""

from __future__ import annotations

import pytest
from studyhall.core.contracts.artifacts import MAX_SELECTION, Scope
from studyhall.core.contracts.scope_text import parse_scope, scope_text
from studyhall.core.errors import InvalidInput


@pytest.mark.parametrize(("text", "scope"), [
    (None, Scope(type="graph")),
    ("", Scope(type="graph")),
    ("graph", Scope(type="graph")),
    ("all", Scope(type="graph")),  # export anki's old word
    ("source:src_1", Scope(type="source", id="src_1")),
    ("session:c_9", Scope(type="session", id="c_9")),
    ("topic:n_heap", Scope(type="topic", id="n_heap")),
    ("cluster:k2", Scope(type="cluster", id="k2")),
    ("nodes:n_a, n_b,n_a", Scope(type="selection", node_ids=("n_a", "n_b"))),
    ("node:n_a", Scope(type="selection", node_ids=("n_a",))),  # export anki's old spelling
])
def test_every_spelling_names_its_scope(text, scope):
    assert parse_scope(text) == scope


@pytest.mark.parametrize("text", ["graph", "source:s", "session:c", "topic:t", "cluster:k",
                                  "nodes:a,b"])
def test_a_scope_written_back_reads_the_same(text):
    assert scope_text(parse_scope(text)) == text


@pytest.mark.parametrize("text", ["everything", "shelf:1", "topic:", "nodes:, ,", "source",
                                  "topic:" + "x" * 300])
def test_a_text_that_is_no_scope_is_refused_with_the_grammar(text):
    with pytest.raises(InvalidInput):
        parse_scope(text)


def test_the_refusal_names_every_kind():
    with pytest.raises(InvalidInput) as e:
        parse_scope("shelf:1")
    assert all(k in str(e.value) for k in ("graph", "source:ID", "session:ID", "topic:ID",
                                           "cluster:ID", "nodes:ID"))


def test_a_selection_over_the_cap_is_refused():
    ids = ",".join(f"n{i}" for i in range(MAX_SELECTION + 1))
    with pytest.raises(InvalidInput, match="at most"):
        parse_scope(f"nodes:{ids}")
