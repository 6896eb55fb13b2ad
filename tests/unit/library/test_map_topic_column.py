"""Issue 28 item 1: the map's ``topic`` column names each idea's topic (the node it is drawn
around as a satellite at topic zoom): the strongest ``supports`` edge's topic, the first on a
tie; a topic, a node linked to another topic, and a node under no topic are -1."""

from __future__ import annotations

from datetime import UTC, datetime

import orjson
from studyhall.adapters.fakes import InMemoryGraphStore
from studyhall.core.contracts.graph import EdgeAdded, Evidence, PropositionCreated, RunCheckpoint
from studyhall.core.library.graph.snapshot import graph_snapshot
from studyhall.server.http.graph_map import GraphMap

AT = datetime(2026, 3, 1, tzinfo=UTC)


def _node(node_id: str, source: str, message: str, quote: str) -> PropositionCreated:
    return PropositionCreated(id=f"prp_{node_id}", node_id=node_id, text=node_id.title(),
                              evidence=(Evidence(source_id=source, message_id=message,
                                                 quote=quote),),
                              source_id=source, run_id="r1", at=AT)


def _edge(a: str, b: str, relation: str = "supports", weight: int | None = None) -> EdgeAdded:
    return EdgeAdded.model_validate({"id": f"e_{a}_{b}", "from": a, "to": b, "weight": weight,
                                     "relation": relation, "source_id": "note_a", "run_id": "r1",
                                     "at": AT})


def _map(edges: list[EdgeAdded]) -> dict:
    store = InMemoryGraphStore()
    store.append_propositions([
        _node("cells", "note_a", "note_a#", "# Cells"),
        _node("energy", "note_b", "note_b#", "# Energy"),
        _node("membrane", "note_a", "note_a#Parts", "The membrane holds the cell."),
        _node("atp", "note_b", "note_b#Use", "ATP carries energy."),
        _node("loose", "chat", "m1", "A finding under no topic."),
    ])
    store.append_edges(edges)
    store.append_checkpoint(RunCheckpoint(id="r1", source_id="note_a", started_at=AT,
                                          finished_at=AT))
    return orjson.loads(GraphMap().part(graph_snapshot(store)))


def topic_of(body: dict, node_id: str) -> str | None:
    at = body["topic"][body["ids"].index(node_id)]
    return None if at == -1 else body["ids"][at]


def test_each_idea_names_its_topic_and_everything_else_is_minus_one():
    body = _map([_edge("membrane", "cells"), _edge("atp", "energy"),
                 _edge("cells", "energy"), _edge("loose", "membrane")])
    assert len(body["topic"]) == body["count"] == 5
    assert topic_of(body, "membrane") == "cells"
    assert topic_of(body, "atp") == "energy"
    assert topic_of(body, "cells") is None  # a link between two notes: both stay topics
    assert topic_of(body, "energy") is None
    assert topic_of(body, "loose") is None  # it supports an idea, not a topic


def test_an_idea_of_two_topics_belongs_to_the_strongest_tie_then_the_first():
    first = _map([_edge("atp", "cells"), _edge("atp", "energy")])
    assert topic_of(first, "atp") == "cells"  # same weight: the first edge
    heavier = _map([_edge("atp", "cells"), _edge("atp", "energy", weight=3)])
    assert topic_of(heavier, "atp") == "energy"


def test_a_follows_edge_makes_no_idea_and_the_other_columns_are_unchanged():
    body = _map([_edge("membrane", "cells", relation="follows")])
    assert body["topic"] == [-1] * 5
    assert set(body) - {"topic"} == {
        "version", "total", "start", "count", "next", "state_names", "ids", "labels", "states",
        "x", "y", "cluster", "evidence", "quiz", "src", "topic_states", "edges", "edge_weights",
        "clusters", "sources"}
