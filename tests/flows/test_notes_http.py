"""The notes front door over HTTP: start an import, follow its progress, read the sources,
search the graph, store dragged positions — and hostile requests refused with a clear message."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from studyhall.server.app import build_services

from tests.support.embedder import HashEmbedder, UnloadableEmbedder
from tests.support.notes import make_vault, write
from tests.support.server import api_client, make_config


def client_for():
    services = replace(build_services(make_config()), embedder=HashEmbedder())
    return api_client(services), services


def finish(client, run_id: str) -> dict:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        run = client.get(f"/api/graph/import/{run_id}").json()
        if run["status"] != "running":
            return run
        time.sleep(0.05)
    raise AssertionError("the import did not finish")


def test_import_over_http_then_sources_search_and_positions(tmp_path: Path):
    vault = make_vault(tmp_path / "Vault", notes=6)
    write(vault, "bad.md", b"\x00\x01")
    client, services = client_for()
    with client:
        started = client.post("/api/graph/import", json={"path": str(vault)})
        assert started.status_code == 202
        run_id = started.json()["run_id"]
        joined = client.post("/api/graph/import", json={"path": str(vault)}).json()
        run = finish(client, run_id)
        assert joined["run_id"] in (run_id, joined["run_id"])
        assert run["status"] == "done", run
        assert run["kind"] == "import" and run["stage"] == "done"
        report = run["report"]
        assert (report["notes"], report["imported"]) == (6, 6)
        assert report["skipped"] == [{"path": "bad.md", "reason": "a binary file, not text"}]
        assert any(r["run_id"] == run_id for r in client.get("/api/graph/imports").json())

        listed = {s["path"]: s for s in client.get("/api/sources").json()}
        assert listed["cells/Note 00.md"]["links"] == ["energy/Note 01.md"]
        assert listed["bad.md"]["status"] == "skipped"

        hits = client.get("/api/graph/search", params={"q": "first detail of note 03"}).json()
        assert hits["semantic"] is True
        # Was the sentence's own node, then its section's heading node; now the sentence is
        # evidence on its note's topic (headings are sections: issue 28 item 1).
        assert hits["results"][0]["text"] == "Note 03"
        assert hits["results"][0]["match"] == "both"

        graph = client.get("/api/graph").json()
        node = graph["nodes"][0]["id"]
        moved = client.put(
            "/api/graph/positions",
            json={"positions": {node: {"x": 12.5, "y": -3}, "n_not_a_node": {"x": 1, "y": 1}}},
        )
        assert moved.status_code == 200 and moved.json() == {"saved": 1, "placed": 0}
        stored = services.graph_store.positions()
        assert (stored[node].x, stored[node].y) == (12.5, -3.0)
        assert "n_not_a_node" not in stored


def test_search_falls_back_to_text_without_an_embedder(tmp_path: Path):
    vault = make_vault(tmp_path / "Vault", notes=3)
    services = replace(build_services(make_config()), embedder=UnloadableEmbedder())
    with api_client(services) as client:
        run = finish(
            client,
            client.post("/api/graph/import", json={"path": str(vault), "embed": False}).json()[
                "run_id"
            ],
        )
        assert run["status"] == "done"
        hits = client.get("/api/graph/search?q=Step+two").json()
        assert hits["semantic"] is False
        assert [h["match"] for h in hits["results"]] == ["text"] * len(hits["results"])
        # Was a sentence node, then the heading node "…: Steps"; now the note whose section
        # holds the sentence.
        assert hits["results"][0]["text"].startswith("Note 0")


def test_hostile_and_broken_requests_are_refused_clearly(tmp_path: Path):
    client, services = client_for()
    with client:
        missing = client.post("/api/graph/import", json={"path": str(tmp_path / "nope")})
        assert missing.status_code == 404 and "There is nothing at" in missing.json()["message"]
        for body in ({}, {"path": ""}, {"path": "x", "mode": "gpt"}, {"path": 3}):
            bad = client.post("/api/graph/import", json=body)
            assert bad.status_code == 400 and '"path"' in bad.json()["message"]
        assert client.post("/api/graph/import", content=b"{nope").status_code == 400
        assert client.post("/api/graph/import", json={"path": "a\x00b"}).status_code == 400
        assert client.get("/api/graph/import/import_nope").status_code == 404
        assert client.get("/api/graph/search").status_code == 400
        assert client.get("/api/graph/search?q=x&limit=0").status_code == 400
        assert client.get("/api/graph/search?q=" + "x" * 600).status_code == 400
        for body in (b"[]", b'{"positions": []}', b"not json"):
            assert client.put("/api/graph/positions", content=body).status_code == 400
        vault = make_vault(tmp_path / "Vault", notes=2)
        finish(client, client.post("/api/graph/import", json={"path": str(vault)}).json()["run_id"])
        node = client.get("/api/graph").json()["nodes"][0]["id"]
        before = services.graph_store.positions()[node]
        for value in (
            {"x": "1", "y": 2},
            {"x": 1},
            {"x": 1e300, "y": 0},
            {"x": True, "y": 0},
            [1, 2],
        ):
            refused = client.put("/api/graph/positions", json={"positions": {node: value}})
            assert refused.status_code == 400, value
        nan = client.put(
            "/api/graph/positions",
            content=b'{"positions": {"%s": {"x": NaN, "y": 0}}}' % node.encode(),
        )
        assert nan.status_code == 400
        assert services.graph_store.positions()[node] == before  # nothing half-applied


def test_an_aborted_import_stops_between_notes_and_a_new_one_completes_it(tmp_path: Path):
    from studyhall.adapters.store import JsonlGraphStore

    from tests.support.notes import canonical, importer

    vault = make_vault(tmp_path / "Vault", notes=150)
    clean = tmp_path / "clean"
    import asyncio

    asyncio.run(importer(clean).run(str(vault), embed=False))
    client, services = client_for()
    with client:
        run_id = client.post("/api/graph/import", json={"path": str(vault), "embed": False})
        run_id = run_id.json()["run_id"]
        other = client.post("/api/graph/import", json={"path": str(tmp_path)})
        assert other.status_code == 409 and "is running" in other.json()["message"]
        assert client.post(f"/api/graph/import/{run_id}/abort").json() == {"aborted": True}
        run = finish(client, run_id)
        assert run["status"] == "aborted" and "importing again continues" in run["error"]
        data = services.config.data_dir
        partial = canonical(data)
        assert partial != canonical(clean)
        again = finish(
            client,
            client.post("/api/graph/import", json={"path": str(vault), "embed": False}).json()[
                "run_id"
            ],
        )
        assert again["status"] == "done"
        assert canonical(data) == canonical(clean)
        assert JsonlGraphStore(data / "graph").checkpoints().skipped == 0
