"""The Sources routes against a real app: the shelf, the reader's content, the player's media
with HTTP Range, removal that keeps the graph, re-import — and files outside the recorded
sources refused (``..``, absolute paths, symlinks out of the folder)."""

from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path

from studyhall.server.app import build_services

from tests.support.embedder import HashEmbedder
from tests.support.server import api_client, make_config
from tests.support.shelf import make_shelf


def finish(client, run_id: str) -> dict:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        run = client.get(f"/api/graph/import/{run_id}").json()
        if run["status"] != "running":
            return run
        time.sleep(0.05)
    raise AssertionError("the import did not finish")


def imported(tmp_path: Path):
    course = make_shelf(tmp_path / "Course")
    services = replace(build_services(make_config()), embedder=HashEmbedder())
    client = api_client(services)
    return course, client, services


def shelf(client) -> dict[str, dict]:
    return {s["path"]: s for s in client.get("/api/sources").json()}


def test_shelf_reader_and_player(tmp_path: Path):
    course, client, _ = imported(tmp_path)
    with client:
        run = finish(client, client.post("/api/graph/import", json={"path": str(course)}).json()["run_id"])
        assert run["status"] == "done", run
        listed = shelf(client)
        note, krebs = listed["notes/Glycolysis.md"], listed["notes/Krebs cycle.md"]
        lecture, pdf = listed["lectures/Lecture 04 - Respiration.vtt"], listed["Chapter 5.pdf"]
        assert (note["kind"], lecture["kind"], pdf["kind"]) == ("note", "transcript", "pdf")
        assert note["title"] == "Glycolysis" and note["graph_nodes"] > 0
        assert note["graph_topics"] == 1  # the note's own topic on the map
        assert lecture["chunks"] > 10 and lecture["embedded"] and lecture["stale"] is False
        assert lecture["has_media"] is True and pdf["has_media"] is False

        body = client.get(f"/api/sources/{note['id']}").json()
        assert "tags:" not in body["markdown"]  # frontmatter is not shown
        assert f"[Krebs cycle](#/sources/{krebs['id']})" in body["markdown"]
        assert f"(#/sources/{krebs['id']}?at=where-it-happens)" in body["markdown"]
        assert "[[Missing note]]" not in body["markdown"] and "Missing note" in body["markdown"]
        assert "*(embedded: glycolysis-diagram.png)*" in body["markdown"]
        assert [h["slug"] for h in body["headings"]] == [
            "glycolysis", "the-ten-steps", "energy-yield", "regulation"]

        cues = client.get(f"/api/sources/{lecture['id']}").json()["cues"]
        assert len(cues) == 500 and cues[125]["start"] == 750.0
        pages = client.get(f"/api/sources/{pdf['id']}").json()["pages"]
        assert [p["page"] for p in pages] == [1, 2, 3] and "ATP synthase" in pages[2]["text"]

        media = course / "lectures" / "Lecture 04 - Respiration.m4a"
        data = media.read_bytes()
        url = f"/api/sources/{lecture['id']}/media"
        whole = client.get(url)
        assert whole.status_code == 200 and whole.content == data
        assert whole.headers["accept-ranges"] == "bytes"
        part = client.get(url, headers={"range": "bytes=100-199"})
        assert part.status_code == 206 and part.content == data[100:200]
        assert part.headers["content-range"] == f"bytes 100-199/{len(data)}"
        tail = client.get(url, headers={"range": "bytes=-10"})
        assert tail.status_code == 206 and tail.content == data[-10:]
        open_end = client.get(url, headers={"range": f"bytes={len(data) - 5}-"})
        assert open_end.content == data[-5:]
        refused = client.get(url, headers={"range": f"bytes={len(data)}-"})
        assert refused.status_code == 416 and refused.headers["content-range"] == f"bytes */{len(data)}"
        assert client.get(f"/api/sources/{pdf['id']}/media").status_code == 404


def test_nothing_outside_the_recorded_sources_is_served(tmp_path: Path):
    course, client, services = imported(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("the learner's private diary")
    with client:
        finish(client, client.post("/api/graph/import", json={"path": str(course)}).json()["run_id"])
        store = services.source_store
        lecture = shelf(client)["lectures/Lecture 04 - Respiration.vtt"]
        note = shelf(client)["notes/Krebs cycle.md"]
        for bad in ("../secret.txt", str(secret), "lectures/../../secret.txt"):
            store.save(store.get(lecture["id"]).model_copy(update={"media": bad}))
            assert client.get(f"/api/sources/{lecture['id']}/media").status_code == 404, bad
            store.save(store.get(note["id"]).model_copy(update={"path": bad}))
            answer = client.get(f"/api/sources/{note['id']}")
            assert answer.status_code == 404 and "diary" not in answer.text, bad
        # A symlink inside the folder that points out of it is not followed.
        os.symlink(secret, course / "notes" / "escape.md")
        store.save(store.get(note["id"]).model_copy(update={"path": "notes/escape.md"}))
        assert client.get(f"/api/sources/{note['id']}").status_code == 404
        os.symlink(secret, course / "lectures" / "escape.m4a")
        store.save(store.get(lecture["id"]).model_copy(update={"media": "lectures/escape.m4a"}))
        assert client.get(f"/api/sources/{lecture['id']}/media").status_code == 404
        for sid in ("..", "..%2F..%2Fsecret.txt", "note_nope"):
            assert client.get(f"/api/sources/{sid}").status_code == 404
        client.cookies.clear()  # no token: not even the list is answered
        for url in ("/api/sources", f"/api/sources/{lecture['id']}/media"):
            assert client.get(url, headers={"authorization": ""}).status_code == 401


def test_remove_keeps_the_graph_and_reimport_brings_it_back(tmp_path: Path):
    course, client, services = imported(tmp_path)
    with client:
        finish(client, client.post("/api/graph/import", json={"path": str(course)}).json()["run_id"])
        lecture = shelf(client)["lectures/Lecture 04 - Respiration.vtt"]
        nodes_before = client.get("/api/graph").json()["nodes"]
        removed = client.delete(f"/api/sources/{lecture['id']}")
        assert removed.status_code == 200 and removed.json()["chunks_removed"] == lecture["chunks"]
        after = shelf(client)["lectures/Lecture 04 - Respiration.vtt"]
        assert after["status"] == "deleted" and after["chunks"] == 0
        assert services.search_index.chunks(lecture["id"]) == []
        assert client.get("/api/graph").json()["nodes"] == nodes_before  # nothing learned is lost
        assert client.get(f"/api/sources/{lecture['id']}").status_code == 404
        assert client.get(f"/api/sources/{lecture['id']}/media").status_code == 404

        again = client.post(f"/api/sources/{lecture['id']}/reimport")
        assert again.status_code == 202
        assert finish(client, again.json()["run_id"])["status"] == "done"
        back = shelf(client)["lectures/Lecture 04 - Respiration.vtt"]
        assert back["status"] == "imported" and back["chunks"] == lecture["chunks"]
        assert client.delete("/api/sources/note_nope").status_code == 404


def test_the_shelf_counts_an_idea_citing_two_sources_once(tmp_path: Path):
    from datetime import UTC, datetime

    from studyhall.core.contracts.graph import Evidence, PropositionCreated, RunCheckpoint

    course, client, services = imported(tmp_path)
    with client:
        finish(client, client.post("/api/graph/import", json={"path": str(course)}).json()["run_id"])
        listed = shelf(client)
    note, lecture = listed["notes/Glycolysis.md"], listed["lectures/Lecture 04 - Respiration.vtt"]
    # One idea the learner met in a note and again in a lecture: two sources, one node.
    services.graph_store.append_propositions([PropositionCreated(
        id="prp_both", node_id="atp-yield", text="Glycolysis nets two ATP per glucose",
        source_id=note["id"], run_id="r1", at=datetime(2026, 12, 4, 12, tzinfo=UTC),
        evidence=(Evidence(source_id=note["id"], message_id=f"{note['id']}#Energy yield",
                           quote="two ATP"),
                  Evidence(source_id=lecture["id"], message_id=f"{lecture['id']}@60",
                           quote="two ATP")))])
    services.graph_store.append_checkpoint(RunCheckpoint(
        id="r1", source_id=note["id"], started_at=datetime(2026, 12, 4, 12, tzinfo=UTC),
        finished_at=datetime(2026, 12, 4, 12, tzinfo=UTC)))
    with api_client(services) as client:
        listed = shelf(client)
        cited = {n["id"] for n in client.get("/api/graph").json()["nodes"] if n.get("sources")}
        totals = client.get("/api/shelf").json()
        summed = sum(s["graph_nodes"] for s in listed.values())
        assert listed["lectures/Lecture 04 - Respiration.vtt"]["graph_nodes"] == lecture["graph_nodes"] + 1
        assert totals["graph_nodes"] == len(cited) < summed  # the idea is counted once
        assert 0 < totals["graph_topics"] < totals["graph_nodes"]
        assert totals["sources"] == len(listed)
        assert totals["passages"] == sum(s["chunks"] for s in listed.values())
        # A removed source's nodes leave the line, unless another source still cites them.
        assert client.delete(f"/api/sources/{lecture['id']}").status_code == 200
        after = client.get("/api/shelf").json()
        assert after["graph_nodes"] == totals["graph_nodes"] - lecture["graph_nodes"]
        assert (after["sources"], after["passages"]) == (
            totals["sources"] - 1, totals["passages"] - lecture["chunks"])
