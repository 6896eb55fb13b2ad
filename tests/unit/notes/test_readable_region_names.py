"""Region and cluster names read as a learner's words: never a code token from a vault's
headings (``list()``, ``strip_md``, ``linksTo()``, "round", "min()"), never repeated (issue 28)."""

from __future__ import annotations

import pytest
from studyhall.core.contracts.graph import Cluster
from studyhall.core.library.upkeep.cluster_names import central_name, unique_names
from studyhall.core.library.upkeep.readable_names import readable

CODE_TOKENS = ["list()", "strip_md", "linksTo()", "round", "min()", "`dv.pages`", "os.path",
               "Parameters", "returns", "__init__", "a -> b", "[[Core plugins]]", "42", "getX"]
NAMES = ["Backlinks", "Outgoing links", "Core plugins", "Mitochondria", "ATP", "Graph view",
         "Drag and drop", "Settings — Plugins", "Status bar", "Data structures 2", "Properties"]


@pytest.mark.parametrize("token", CODE_TOKENS)
def test_a_code_token_is_not_a_readable_name(token):
    assert not readable(token)


@pytest.mark.parametrize("name", NAMES)
def test_a_note_title_is_a_readable_name(name):
    assert readable(name)


def test_a_cluster_of_code_headings_is_named_by_their_note():
    # The most central members are API headings; the note they belong to names the region.
    texts = {"a": "Dataview API: list()", "b": "Dataview API: strip_md", "c": "Dataview API: round",
             "d": "Dataview API: min()"}
    edges = [("a", "b"), ("a", "c"), ("a", "d"), ("b", "c")]
    assert central_name(["a", "b", "c", "d"], texts, edges) == "Dataview API"


def test_the_next_central_readable_member_wins_over_a_code_token():
    texts = {"a": "linksTo()", "b": "Outgoing links", "c": "min()"}
    edges = [("a", "b"), ("a", "c")]
    assert central_name(["a", "b", "c"], texts, edges) == "Outgoing links"


def test_the_folder_names_a_region_with_nothing_readable_inside():
    texts = {"a": "round", "b": "min()"}
    assert central_name(["a", "b"], texts, [("a", "b")], folder="Maths") == "Maths"
    assert central_name(["a", "b"], texts, [("a", "b")]) == "Untitled region"


def test_unique_names_replace_a_code_label_and_never_repeat_or_bracket():
    texts = {"a": "Backlinks", "b": "Backlinks: View backlinks", "c": "Outgoing links",
             "d": "Outgoing links: Unlinked", "e": "strip_md", "f": "Search"}
    clusters = [
        Cluster(id="c0", node_ids=("a", "b"), label="Backlinks", label_source="terms"),
        Cluster(id="c1", node_ids=("c", "d"), label="linksTo()", label_source="model"),
        Cluster(id="c2", node_ids=("e", "f"), label="Backlinks", label_source="terms"),
        Cluster(id="c3", node_ids=("a",), label="Backlinks", label_source="terms"),
    ]
    edges = [("b", "a"), ("d", "c"), ("e", "f")]
    labels = [c.label for c in unique_names(clusters, texts, edges)]
    assert labels[1] == "Outgoing links"
    assert len({label.casefold() for label in labels}) == len(labels)
    assert all(readable(label) for label in labels), labels
