"""A small graph to make artifacts from: a topic ("Heaps") with a sub-topic and a proposition
under it (``supports`` edges), an unrelated idea learned in a session, a cluster of the heap
ideas, all with verbatim evidence quotes; and the writers' scripted answers about it."""

from __future__ import annotations

from typing import Any

from studyhall.core.contracts.graph import (
    Cluster,
    EdgeAdded,
    Evidence,
    PropositionCreated,
    RunCheckpoint,
)

from tests.support.library_session import at

CHAT = "chat_heaps"
SOURCE = "src_heaps"
QUOTES = {
    "n_heap": "A heap is a complete binary tree stored in an array",
    "n_ops": "Insert and extract both take logarithmic time",
    "n_sift": "Sift-down swaps a parent with its smaller child until the order holds",
    "n_graph": "A graph is a set of vertices joined by edges",
}
TEXTS = {
    "n_heap": "Heaps",
    "n_ops": "Heaps: operations",
    "n_sift": "Sift-down restores the heap order.",
    "n_graph": "A graph has vertices and edges.",
}


def seed_heap_graph(graph_store: Any, chat_id: str = CHAT) -> None:
    """Write the graph (checkpointed, so the fold shows it) and the heap cluster."""
    sources = {"n_heap": SOURCE, "n_ops": SOURCE, "n_sift": SOURCE, "n_graph": chat_id}
    graph_store.append_propositions([
        PropositionCreated(id=f"prp_{node}", node_id=node, text=TEXTS[node],
                           evidence=(Evidence(source_id=sources[node], message_id="m_1",
                                              quote=QUOTES[node]),),
                           source_id=sources[node], run_id="r1", at=at(0))
        for node in TEXTS])
    graph_store.append_edges([
        EdgeAdded.model_validate({"id": f"edg_{a}_{b}", "from": a, "to": b,
                                  "relation": "supports", "source_id": SOURCE,
                                  "run_id": "r1", "at": at(0)})
        for a, b in (("n_ops", "n_heap"), ("n_sift", "n_ops"))])
    graph_store.append_checkpoint(RunCheckpoint(id="r1", source_id=SOURCE, started_at=at(0),
                                                finished_at=at(0)))
    graph_store.save_clusters([Cluster(id="c_heaps", node_ids=("n_heap", "n_ops", "n_sift"),
                                       label="Heaps")])


def cards_answer(node: str = "n_sift") -> dict[str, Any]:
    """A flashcards writer's answer: one card backed by its quote, one card whose evidence
    is not in the material (the check drops it)."""
    return {"json": {"title": "Heap cards", "cards": [
        {"front": "What does sift-down do?", "back": "Swaps a parent with its smaller child "
         "until the order holds.", "node_id": node, "evidence": QUOTES["n_sift"]},
        {"front": "How is a heap stored?", "back": "As a complete binary tree in an array.",
         "node_id": "n_heap", "evidence": QUOTES["n_heap"]},
        {"front": "Who invented heaps?", "back": "J. W. J. Williams in 1964.",
         "node_id": None, "evidence": "Williams invented the heap in 1964"}]}}


NOTES_ANSWER = {"json": {"title": "Heap notes", "markdown": "# Heaps\n\nA heap is a complete "
                         "binary tree stored in an array; sift-down restores its order."}}
