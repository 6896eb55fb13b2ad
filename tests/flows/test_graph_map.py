"""Home's slim graph: ``GET /api/graph/map`` (columns, most important first, in parts, kept per
graph version) and ``GET /api/graph/nodes/{id}`` (one node in full) agree with ``GET /api/graph``."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from studyhall.core.contracts.graph import (
    Evidence,
    Position,
    PropositionCreated,
    QuizEvent,
    RunCheckpoint,
)
from studyhall.server.app import build_services

from tests.support.big_graph import seed_big_graph
from tests.support.server import api_client, make_config

AT = datetime(2026, 2, 1, tzinfo=UTC)


@pytest.fixture
def services(tmp_path):
    services = build_services(make_config(data_dir=tmp_path / "data"))
    seed_big_graph(services.graph_store, 300, clusters=6)
    return services


def add_run(store, run: str, count: int, *, first: int = 10_000) -> list[str]:
    """A merged run of ``count`` new nodes (it counts once its checkpoint is written)."""
    ids = [f"x{first + i}" for i in range(count)]
    store.append_propositions([PropositionCreated(
        id=f"prp_{run}_{i}", node_id=n, text=f"New fact {n}", source_id="notes2", run_id=run,
        evidence=(Evidence(source_id="notes2", message_id="m", quote="q"),), at=AT)
        for i, n in enumerate(ids)])
    store.append_checkpoint(RunCheckpoint(id=run, source_id="notes2", started_at=AT,
                                          finished_at=AT, propositions=count))
    return ids


def columns(body: dict) -> list[dict]:
    """The map's nodes as dicts (with their cluster id and source ids)."""
    out = []
    for i in range(body["count"]):
        src = body["src"][i]
        out.append({
            "id": body["ids"][i], "label": body["labels"][i],
            "state": body["state_names"][body["states"][i]],
            "x": body["x"][i], "y": body["y"][i],
            "cluster": body["clusters"][body["cluster"][i]]["id"] if body["cluster"][i] >= 0 else None,
            "evidence": body["evidence"][i], "quiz": body["quiz"][i],
            "sources": [body["sources"][k] for k in ([src] if isinstance(src, int) else src)],
        })
    return out


def test_the_map_says_what_the_full_graph_says_in_less(services):
    with api_client(services) as client:
        full = client.get("/api/graph")
        slim = client.get("/api/graph/map")
    assert slim.status_code == 200
    body = slim.json()
    assert body["total"] == body["count"] == 300 and body["start"] == 0 and body["next"] is None
    nodes = {n["id"]: n for n in full.json()["nodes"]}
    got = columns(body)
    assert sorted(n["id"] for n in got) == sorted(nodes)
    for n in got:
        whole = nodes[n["id"]]
        assert whole["text"].startswith(n["label"]) and len(n["label"]) <= 48
        assert n["state"] == whole["state"] and n["cluster"] == whole["cluster"]
        assert n["x"] == round(whole["position"]["x"], 1) and n["y"] == round(whole["position"]["y"], 1)
        assert n["evidence"] == len(whole["evidence"]) and n["quiz"] == len(whole["quiz"])
        assert n["sources"] == whole["sources"]
    ids = body["ids"]
    pairs = sorted((ids[a], ids[b]) for a, b in zip(body["edges"][::2], body["edges"][1::2]))
    assert pairs == sorted((e["from"], e["to"]) for e in full.json()["edges"]) and pairs
    assert [c["id"] for c in body["clusters"]] == [c["id"] for c in full.json()["clusters"]]
    assert [c["size"] for c in body["clusters"]] == [len(c["node_ids"]) for c in full.json()["clusters"]]
    assert len(slim.content) * 3 < len(full.content)
    # Most important first: learned nodes with links lead, untried ones without links trail.
    learned = [s != body["state_names"].index("not-tried") for s in body["states"]]
    assert learned[0] and not learned[-1]


def test_parts_put_together_are_the_whole_map_and_each_edge_comes_once(services):
    with api_client(services) as client:
        whole = client.get("/api/graph/map").json()
        first = client.get("/api/graph/map", params={"limit": 120}).json()
        version = first["version"]
        second = client.get("/api/graph/map", params={"start": 120, "limit": 100,
                                                       "version": version}).json()
        third = client.get("/api/graph/map", params={"start": 220, "version": version}).json()
    assert (first["count"], first["next"], second["next"], third["next"]) == (120, 120, 220, None)
    assert third["count"] == 80 and third["total"] == 300
    assert "clusters" not in second and "sources" not in third  # with the first part only
    for name in ("ids", "labels", "states", "x", "y", "cluster", "evidence", "quiz", "src"):
        assert first[name] + second[name] + third[name] == whole[name], name
    assert sorted(first["edges"] + second["edges"] + third["edges"]) == sorted(whole["edges"])
    for part, end in ((first, 120), (second, 220), (third, 300)):
        ends = [max(a, b) for a, b in zip(part["edges"][::2], part["edges"][1::2])]
        assert all(part["start"] <= e < end for e in ends)  # sent with its later node


def test_the_map_is_kept_per_version_and_a_new_run_makes_a_new_one(services):
    store = services.graph_store
    with api_client(services) as client:
        one = client.get("/api/graph/map").json()
        assert client.get("/api/graph/map").json()["version"] == one["version"]
        same = client.get("/api/graph/map", params={"known": one["version"]})
        assert same.json() == {"version": one["version"], "unchanged": True}

        new = add_run(store, "run_more", 5)
        fresh = client.get("/api/graph/map", params={"known": one["version"]}).json()
        assert fresh["version"] != one["version"] and fresh["total"] == 305
        assert set(new) <= set(fresh["ids"])
        # A later part of the old version: the graph changed, so start again.
        late = client.get("/api/graph/map", params={"start": 10, "version": one["version"]})
        assert late.json() == {"version": fresh["version"], "stale": True}

        # Positions saved (upkeep placing the new nodes) make a new version too.
        store.save_positions({**store.positions(), **{n: Position(x=1.0, y=2.0) for n in new}})
        placed = client.get("/api/graph/map", params={"known": fresh["version"]}).json()
        assert placed["version"] != fresh["version"]
        assert {placed["x"][placed["ids"].index(n)] for n in new} == {1.0}

        # A quiz answer changes a node's state and counts.
        target = new[0]
        store.append_quiz_events([QuizEvent(
            id="quz_1", node_id=target, verdict="correct", source_id="chat_1",
            tool_call_id="c1", question_index=0, run_id="run_quiz", at=AT)])
        store.append_checkpoint(RunCheckpoint(id="run_quiz", source_id="chat_1", started_at=AT,
                                              finished_at=AT, propositions=0))
        quizzed = client.get("/api/graph/map", params={"known": placed["version"]}).json()
        at = quizzed["ids"].index(target)
        assert quizzed["quiz"][at] == 1


def test_a_node_in_full_with_its_links(services):
    with api_client(services) as client:
        full = client.get("/api/graph").json()
        linked = full["edges"][0]["from"]
        detail = client.get(f"/api/graph/nodes/{linked}")
        missing = client.get("/api/graph/nodes/no-such-node")
    assert detail.status_code == 200
    body = detail.json()
    assert body["node"] == next(n for n in full["nodes"] if n["id"] == linked)
    touching = [e for e in full["edges"] if linked in (e["from"], e["to"])]
    assert sorted(e["id"] for e in body["edges"]) == sorted(e["id"] for e in touching)
    others = {e["to"] if e["from"] == linked else e["from"] for e in touching}
    assert {n["id"] for n in body["neighbours"]} == others
    texts = {n["id"]: n["text"] for n in full["nodes"]}
    assert all(n["text"] == texts[n["id"]] for n in body["neighbours"])
    cluster = body["node"]["cluster"]
    assert [c["id"] for c in body["clusters"]] == [cluster]
    # What it builds on and what leads on from it come in the same read, each neighbour once.
    links = body["links"]
    both = links["builds_on"] + links["leads_to"]
    assert both and sorted(x["id"] for x in both) == sorted(others - {linked})
    kinds = {(e["from"], e["to"]): e["kind"] for e in full["edges"]}
    for x in links["builds_on"]:
        assert kinds.get((linked, x["id"])) == "supports" or kinds.get((x["id"], linked)) == "follows"
    assert all(x["text"] == texts[x["id"]] and x["session"] is None for x in both)
    assert missing.status_code == 404
    assert "no-such-node" in missing.json()["message"] and "reload" in missing.json()["message"]


@pytest.mark.parametrize("query", ["limit=0", "start=-1", "start=x", "limit=2&limit=3", "page=1"])
def test_the_map_refuses_a_malformed_query(services, query):
    with api_client(services) as client:
        r = client.get(f"/api/graph/map?{query}")
    assert r.status_code == 400, r.text


def test_a_version_longer_than_any_the_server_gives_is_refused() -> None:
    with api_client() as client:
        for name in ("known", "version"):
            r = client.get(f"/api/graph/map?{name}={'0' * 65}")
            assert r.status_code == 400, r.text
            assert "reload the graph" in r.json()["message"]
