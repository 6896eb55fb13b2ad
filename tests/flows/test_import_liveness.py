"""A hostile vault does not freeze the app (issue 27 F3): while a note of 20k headings (~600 KB)
imports beside ordinary notes, ``/api/health`` keeps answering promptly, and the import ends
with every note in the graph. It once held the event loop for minutes (one health answer
waited 168 s); the notes are now extracted in linear time and every heavy step of the import
(parse, views, extraction, planning, the links' evidence index) runs in a worker thread."""

from __future__ import annotations

import statistics
import threading
import time
from dataclasses import replace
from pathlib import Path

from studyhall.core.library.graph.snapshot import graph_snapshot
from studyhall.server.app import build_services

from tests.support.hostile_vault import NORMAL_NOTES, OffLoopHashEmbedder, make_hostile_vault
from tests.support.server import api_client, make_config

# The target is 1 s, met on a quiet machine. What is still on the loop is the group
# commit of the huge note's 20k records (the graph has one writer: its ledger writes stay on
# the loop): 0.4 s of CPU, but up to ~2 s of wall time measured at load 6.5 on 2 cores, where
# the loop thread waits for a core. 5 s keeps a loaded box green while the old code (one
# answer after 168 s in the issue, 113 s here) is far past it; most answers must be quick.
HEALTH_BOUND = 5.0
TYPICAL_BOUND = 0.5


def test_health_answers_promptly_while_a_note_of_20k_headings_imports(tmp_path: Path) -> None:
    vault = make_hostile_vault(tmp_path / "Vault")
    services = replace(build_services(make_config()), embedder=OffLoopHashEmbedder())
    with api_client(services) as client:
        assert client.get("/api/health").json()["ok"] is True  # warm
        latencies: list[float] = []
        stop = threading.Event()

        def poll() -> None:
            while not stop.is_set():
                began = time.perf_counter()
                assert client.get("/api/health").status_code == 200
                latencies.append(time.perf_counter() - began)
                time.sleep(0.05)

        # No embedding: the clusters and layout of 20k nodes are the upkeep's work, not the
        # parse and extraction this test is about (bench/hostile_import.py --embed has both).
        started = client.post("/api/graph/import", json={"path": str(vault), "embed": False})
        assert started.status_code == 202
        poller = threading.Thread(target=poll, daemon=True)
        poller.start()
        deadline = time.monotonic() + 600
        try:
            while (run := client.get(f"/api/graph/import/{started.json()['run_id']}").json())[
                    "status"] == "running":
                assert time.monotonic() < deadline, "the import did not finish"
                time.sleep(0.1)
        finally:
            stop.set()
            poller.join()
    assert run["status"] == "done", run
    assert (run["report"]["notes"], run["report"]["imported"]) == (4, 4)
    assert len(latencies) >= 5, "the poll hardly ran: the import was too quick to tell anything"
    assert max(latencies) < HEALTH_BOUND, sorted(latencies)[-5:]
    assert statistics.median(latencies) < TYPICAL_BOUND, statistics.median(latencies)
    texts = {n.text for n in graph_snapshot(services.graph_store).nodes}
    # One node for the note (issue 28: its 20k headings were nodes too; sections now).
    assert "Headings" in texts and not any(t.startswith("Headings: Part") for t in texts)
    assert {name.removesuffix(".md") for name in NORMAL_NOTES} <= texts
