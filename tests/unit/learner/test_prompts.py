"""Review prompts from a node's own content: a cloze of its most telling term, or recall."""

from __future__ import annotations

from studyhall.core.library.learner.prompts import BLANK, TermWeights, review_prompt, salient_term

GRAPH = [
    "A tree is a connected graph without cycles.",
    "A graph is a set of vertices joined by edges.",
    "A heap is a complete binary tree with the heap property.",
    "Dijkstra's algorithm finds shortest paths in a graph with nonnegative weights.",
]
WEIGHTS = TermWeights(GRAPH)


def test_the_cloze_blanks_the_rarest_content_word_everywhere_it_appears():
    text = "Memoization stores results; memoization trades memory for time."
    weights = TermWeights([*GRAPH, text])
    prompt = review_prompt(text, weights)
    assert prompt.kind == "cloze" and prompt.answer == "Memoization"
    assert "emoization" not in prompt.prompt and prompt.prompt.count(BLANK) == 2


def test_common_words_across_the_graph_are_not_blanked():
    # "graph" is in most nodes: a blank there would not test this node's idea.
    assert salient_term(GRAPH[0], WEIGHTS) not in {"graph", "tree", "without"}


def test_recall_alternates_with_the_cloze_and_names_the_subject():
    first, second = review_prompt(GRAPH[2], WEIGHTS, 0), review_prompt(GRAPH[2], WEIGHTS, 1)
    assert (first.kind, second.kind) == ("cloze", "recall")
    assert second.prompt == "Recall what you know about “heap”." and second.answer == GRAPH[2]
    # Not a definition: cued by its opening words, not by one word of it (was: "“Dijkstra's”").
    dijkstra = review_prompt(GRAPH[3], WEIGHTS, 1)
    assert dijkstra.prompt == "Complete from memory: “Dijkstra's algorithm finds …”"


def test_a_text_too_short_for_a_cloze_is_recalled():
    prompt = review_prompt("Recursion.", WEIGHTS, 0)
    assert prompt.kind == "recall" and prompt.answer == "Recursion."
    assert review_prompt("— 42 —", WEIGHTS).prompt == "Recall what you know about “— 42 —”."
