"""Issue 28 item 1: the map's edges are the notes' links — one edge per linked pair, direction
kept, weighted by how many links of the note join the pair (a link to a heading of the note
counts: it points into one of its sections); a link added or removed re-weighs the edge."""

from __future__ import annotations

from pathlib import Path

import orjson
from studyhall.adapters.store import JsonlGraphStore
from studyhall.core.library.extraction.merger import node_id_for
from studyhall.core.library.graph.snapshot import graph_snapshot
from studyhall.server.http.graph_detail import EdgeIndex, node_detail
from studyhall.server.http.graph_map import GraphMap

from tests.support.notes import importer, make_vault


def weights(data: Path) -> dict[tuple[str, str], int]:
    snap = graph_snapshot(JsonlGraphStore(data / "graph"))
    text = {n.id: n.text for n in snap.nodes}
    return {(text[e.source], text[e.target]): e.weight for e in snap.edges}


async def test_one_edge_per_linked_pair_weighted_by_its_links(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "Vault", notes=4)  # each note: [[next]] and [[next#heading]]
    data = tmp_path / "data"
    await importer(data).run(str(vault), embed=False)
    assert weights(data) == {("Note 00", "Note 01"): 2, ("Note 01", "Note 02"): 2,
                             ("Note 02", "Note 03"): 2, ("Note 03", "Note 00"): 2}
    snap = graph_snapshot(JsonlGraphStore(data / "graph"))
    body = orjson.loads(GraphMap().part(snap))
    assert body["edge_weights"] == [2, 2, 2, 2] and len(body["edges"]) == 8
    ids = body["ids"]
    pairs = {(ids[a], ids[b]) for a, b in zip(body["edges"][::2], body["edges"][1::2])}
    assert (node_id_for("Note 00"), node_id_for("Note 01")) in pairs  # from, to: links to
    detail = node_detail(snap, node_id_for("Note 01"), EdgeIndex())
    assert {(e["from"], e["to"], e["weight"]) for e in detail["edges"]} == {
        (node_id_for("Note 00"), node_id_for("Note 01"), 2),  # linked from
        (node_id_for("Note 01"), node_id_for("Note 02"), 2)}  # links to


async def test_a_link_removed_re_weighs_its_edge_and_an_unchanged_vault_writes_nothing(
        tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "Vault", notes=4)
    data = tmp_path / "data"
    await importer(data).run(str(vault), embed=False)
    note = vault / "cells" / "Note 00.md"
    note.write_text(note.read_text().replace("builds on [[Note 01#Details of energy]]",
                                             "builds on the next note's details"))
    await importer(data).run(str(vault), embed=False)
    assert weights(data)[("Note 00", "Note 01")] == 1
    assert weights(data)[("Note 01", "Note 02")] == 2
    before = sorted(p.read_bytes() for p in (data / "graph").rglob("*.jsonl"))
    again = await importer(data).run(str(vault), embed=False)
    assert again.edges == 0
    assert sorted(p.read_bytes() for p in (data / "graph").rglob("*.jsonl")) == before
