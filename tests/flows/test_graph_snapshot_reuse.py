"""Graph reads that change nothing cost nothing: the reader hands out its last snapshot while no
record was folded and the side files say the same, and the file store keeps positions and
clusters decoded until their file changes — whoever changed it."""

from __future__ import annotations

from datetime import UTC, datetime

from studyhall.adapters.store import JsonlGraphStore
from studyhall.core.contracts.graph import (
    Cluster,
    Evidence,
    Position,
    PropositionCreated,
    RunCheckpoint,
)
from studyhall.server.runtime.library.graph_reader import GraphReader

from tests.support.big_graph import seed_big_graph

AT = datetime(2026, 2, 1, tzinfo=UTC)


def test_the_reader_reuses_its_snapshot_until_something_changes(tmp_path):
    store = JsonlGraphStore(tmp_path / "graph")
    seed_big_graph(store, 60, clusters=3)
    reader = GraphReader(store)
    first = reader.snapshot()
    assert reader.snapshot() is first

    store.save_positions({**store.positions(), "n00001": Position(x=5.0, y=6.0)})
    moved = reader.snapshot()
    assert moved is not first and moved.positions["n00001"] == Position(x=5.0, y=6.0)
    assert reader.snapshot() is moved

    store.save_clusters([Cluster(id="c0", node_ids=("n00001", "n00002"), label="Two")])
    regrouped = reader.snapshot()
    assert regrouped is not moved and [c.label for c in regrouped.clusters] == ["Two"]

    store.append_propositions([PropositionCreated(
        id="prp_new", node_id="new", text="A new fact", source_id="notes", run_id="more",
        evidence=(Evidence(source_id="notes", message_id="m", quote="q"),), at=AT)])
    store.append_checkpoint(RunCheckpoint(id="more", source_id="notes", started_at=AT,
                                          finished_at=AT, propositions=1))
    grown = reader.snapshot()
    assert grown is not regrouped and grown.node("new") is not None


def test_the_store_keeps_side_files_decoded_until_they_change(tmp_path):
    store = JsonlGraphStore(tmp_path / "graph")
    other = JsonlGraphStore(tmp_path / "graph")  # another process, say
    store.save_positions({"a": Position(x=1.0, y=1.0)})
    got = store.positions()
    got["b"] = Position(x=0.0, y=0.0)  # a caller's copy: the store's stays as saved
    assert store.positions() == {"a": Position(x=1.0, y=1.0)}
    assert store.positions()["a"] is store.positions()["a"]  # decoded once

    other.save_positions({"a": Position(x=3.0, y=4.0)})
    assert store.positions() == {"a": Position(x=3.0, y=4.0)}
    other.save_clusters([Cluster(id="c", node_ids=("a",), label="A")])
    assert [c.label for c in store.clusters()] == ["A"]
    assert store.clusters() is not store.clusters()  # a list of one's own
