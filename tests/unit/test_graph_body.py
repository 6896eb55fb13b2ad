"""The ``GET /api/graph`` body: byte for byte ``snapshot_to_dict`` encoded by orjson, the same
value Starlette's ``JSONResponse`` would send, and its warm cache never serves a node, gate,
cluster, position or edge that changed."""

from __future__ import annotations

import json
import tracemalloc
from datetime import timedelta, timezone

import orjson
from studyhall.core.contracts.graph import Cluster, Position
from studyhall.core.library.graph.interchange import snapshot_to_dict
from studyhall.core.library.graph.snapshot import GraphFold, GraphSnapshot, Ledgers
from studyhall.core.library.graph.view import SnapshotEdge
from studyhall.server.http.graph_body import GraphBody

from tests.support.graph_events import cp, edge, obs, prop, quiz


def reference(snapshot: GraphSnapshot) -> bytes:
    """``orjson.dumps(snapshot_to_dict(snapshot))``, checked to be the value that
    ``JSONResponse(snapshot_to_dict(snapshot))`` sends (orjson spells some floats apart:
    ``1e20`` for ``1e+20``)."""
    data = snapshot_to_dict(snapshot)
    encoded = orjson.dumps(data)
    standard = json.dumps(data, ensure_ascii=False, allow_nan=False, indent=None,
                          separators=(",", ":")).encode("utf-8")
    assert json.loads(encoded) == json.loads(standard)
    return encoded


def base() -> Ledgers:
    hostile = 'Über "quotes" \\ back\nslash \x07 \u2028 ✓ 𝔸 </script>'
    offset = prop("c", text=hostile).model_copy(
        update={"at": prop("c").at.astimezone(timezone(timedelta(hours=5, minutes=30)))})
    return Ledgers(
        propositions=[prop("a"), prop("b", minute=1), offset],
        edges=[edge("a", "b"), edge("b", "c", kind="supports"), edge("a", "c")],
        quiz_events=[quiz("a", "miss", 2), quiz("b", "correct", 3, q=1)],
        observations=[obs("a", "partial", 4), obs("c", "misconception", 5)],
        checkpoints=[cp("r1")])


def folded(ledgers: Ledgers, clusters=(), positions=None) -> tuple[GraphFold, GraphSnapshot]:
    fold = GraphFold()
    fold.update(ledgers)
    return fold, fold.snapshot(clusters, positions)


def test_the_body_is_exactly_the_dict_encoded():
    _, snap = folded(base(), clusters=[Cluster(id="k1", node_ids=("a", "c"), label="Ærø")],
                     positions={"b": Position(x=1.5, y=-2e-7), "c": Position(x=0, y=1e20)})
    body = GraphBody().render(snap)
    assert body == reference(snap)
    nodes = {n["id"]: n for n in json.loads(body)["nodes"]}
    assert nodes["c"]["created_at"].endswith("+05:30")  # the offset is kept as given
    assert nodes["b"]["blocked_by"] == [{"id": "a", "score": nodes["a"]["score"]}]
    assert nodes["c"]["cluster"] == "k1" and nodes["c"]["position"] == {"x": 0, "y": 1e20}


def test_an_empty_graph():
    assert GraphBody().render(GraphSnapshot()) == b'{"nodes":[],"edges":[],"clusters":[]}'


def test_the_warm_body_follows_every_change():
    fold, snap = folded(base())
    body = GraphBody()
    first = body.render(snap)
    assert first == reference(snap)
    assert body.render(fold.snapshot()) == first  # nothing new: the same bytes

    # A new run: a new node, a quiz answer on "a" (its score, and so the gate of b and c,
    # move), a new edge; clusters and positions appear.
    fold.update(Ledgers(
        propositions=[*base().propositions, prop("d", run="r2", minute=9)],
        edges=[*base().edges, edge("c", "d", run="r2")],
        quiz_events=[*base().quiz_events, quiz("a", "correct", 9, run="r2", call="c2")],
        observations=base().observations,
        checkpoints=[cp("r1"), cp("r2")]))
    grown = fold.snapshot([Cluster(id="k1", node_ids=("b", "d"))], {"a": Position(x=3, y=4)})
    second = body.render(grown)
    assert second != first
    assert second == reference(grown)
    nodes = {n["id"]: n for n in json.loads(second)["nodes"]}
    assert len(nodes["a"]["quiz"]) == 2 and nodes["d"]["blocked_by"] == [{"id": "c",
                                                                          "score": 0.1304}]

    # Side files change alone (same nodes and edges): only tails move.
    moved = fold.snapshot([], {"a": Position(x=5, y=6)})
    assert body.render(moved) == reference(moved)
    for x in (0.0, -0.0, 0.0):  # equal numbers, different text
        nudged = fold.snapshot([], {"a": Position(x=x, y=6)})
        assert body.render(nudged) == reference(nudged)

    # The ledgers were rewritten smaller: nodes that left the graph leave the body.
    fold.update(Ledgers(propositions=[prop("a")], checkpoints=[cp("r1")]))
    shrunk = fold.snapshot()
    assert body.render(shrunk) == reference(shrunk)
    assert [n["id"] for n in json.loads(body.render(shrunk))["nodes"]] == ["a"]


def test_a_node_rebuilt_with_the_same_id_is_encoded_again():
    # Two folds build different node objects for the same id: identity, not id, keys the cache.
    body = GraphBody()
    _, one = folded(Ledgers(propositions=[prop("a", text="One.")], checkpoints=[cp("r1")]))
    _, two = folded(Ledgers(propositions=[prop("a", text="Two.")], checkpoints=[cp("r1")]))
    assert b"One." in body.render(one)
    rendered = body.render(two)
    assert b"Two." in rendered and b"One." not in rendered


def test_many_edges_cost_their_bytes_not_a_buffer_each():
    # orjson hands back every result in a buffer of ~4 KB: 20,000 edges encoded one call each
    # and held until joined would peak near 80 MB; in chunks they cost about their text.
    edges = tuple(SnapshotEdge(f"edg_{i}", f"n{i}", f"n{i + 1}", "follows")
                  for i in range(20_000))
    snapshot = GraphSnapshot(edges=edges)
    tracemalloc.start()
    try:
        body = GraphBody().render(snapshot)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert json.loads(body)["edges"][-1] == {"id": "edg_19999", "from": "n19999",
                                             "to": "n20000", "kind": "follows"}
    assert peak < 8 * len(body), f"{peak / 1e6:.1f} MB for a {len(body) / 1e6:.1f} MB body"
