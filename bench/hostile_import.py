"""Hostile import benchmark: a note of 20k headings (~600 KB) imported over HTTP while
``/api/health`` is polled, as issue 27 F3 found it (182 s, one health answer after 168 s).

    .venv/bin/python bench/hostile_import.py [--headings 20000] [--embed]

Prints the import's seconds and the health answers' latencies (max, p99, median) during it.
The app is the real one (``build_app``) behind Starlette's TestClient, whose server loop runs
on a thread of its own: a health answer waits exactly as long as that loop is held. Without
``--embed`` the import skips the embeddings, clusters and layout (``"embed": false``); with it
they run on a hashed bag-of-words embedder that works off the loop like the app's encoder.
No key: the model-free extractor. Load average is printed with the figures: on a shared
machine wall time grows with the load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.support


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f}/{five:.1f} on {os.cpu_count()} CPUs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--headings", type=int, default=20_000)
    parser.add_argument("--embed", action="store_true", help="also embed, cluster and lay out")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="hostile-import-"))
    os.environ["STUDYHALL_DATA_DIR"] = str(tmp / "data")
    os.environ.pop("STUDYHALL_SCRIPT", None)
    from studyhall.server.app import build_services

    from tests.support.hostile_vault import HOSTILE_NOTE, OffLoopHashEmbedder, make_hostile_vault
    from tests.support.server import api_client, make_config

    vault = make_hostile_vault(tmp / "Vault", args.headings)
    size = (vault / HOSTILE_NOTE).stat().st_size
    print(f"vault: {HOSTILE_NOTE} {size / 1024:.0f} KB, {args.headings} headings, + 3 notes")
    services = replace(build_services(make_config()), embedder=OffLoopHashEmbedder())
    with api_client(services) as client:
        client.get("/api/health")  # warm: the first request builds the routes' caches
        latencies: list[float] = []
        slowest: list[tuple[float, str]] = []  # (seconds, the import's stage when asked)
        stage = ["scanning"]
        stop = threading.Event()

        def poll() -> None:
            while not stop.is_set():
                began, asked_at = time.perf_counter(), stage[0]
                assert client.get("/api/health").status_code == 200
                latencies.append(time.perf_counter() - began)
                slowest.append((latencies[-1], asked_at))
                time.sleep(0.05)

        began = time.perf_counter()
        run_id = client.post("/api/graph/import",
                             json={"path": str(vault), "embed": args.embed}).json()["run_id"]
        poller = threading.Thread(target=poll, daemon=True)
        poller.start()
        while (run := client.get(f"/api/graph/import/{run_id}").json())["status"] == "running":
            stage[0] = run["stage"]
            time.sleep(0.1)
        seconds = time.perf_counter() - began
        stop.set()
        poller.join()
    report = run["report"] or {}
    print(f"import: {run['status']} in {seconds:.1f} s wall ({report.get('seconds', 0):.1f} s "
          f"by its report), {report.get('notes')} notes, {report.get('propositions')} "
          f"propositions ({_load()})")
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(f"/api/health during it: {len(latencies)} answers, max {max(latencies):.3f} s, "
          f"p99 {p99:.3f} s, median {statistics.median(latencies):.3f} s")
    worst = ", ".join(f"{s:.2f} s ({where})" for s, where in sorted(slowest, reverse=True)[:5])
    print(f"slowest answers (the import's stage when asked): {worst}")


if __name__ == "__main__":
    main()
