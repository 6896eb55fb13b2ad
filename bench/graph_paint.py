"""Home's first paint: from opening the page to the graph's first drawn frame, in a real browser.

    .venv/bin/python bench/graph_paint.py [--sizes 10000 100000] [--runs 2]

Seeds a graph of N topics (``tests/support/big_graph.py``: positions, clusters, evidence,
edges), serves it with the real app (``tests/support/live_server.py``) and opens Home in
Debian's chromium through Playwright at 1024×700. For each run it prints, in ms from the
navigation's start: the ``GET /api/graph`` response's end, the model built, the first frame
drawn, and the body's size. The first run of a size also pays the server's first fold; the
figures after it are the warm ones. Targets (issue 14): < 1500 ms at 10k, < 3000 ms at 100k.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.big_graph import seed_big_graph
from tests.support.live_server import CHROMIUM, CHROMIUM_ARGS, start_server

FIRST_FRAME = """() => { const g = window.__studyhall && window.__studyhall.graph;
    return !!(g && g.stats.firstFrameAt); }"""
FIGURES = """() => { const g = window.__studyhall.graph;
    const body = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/api/graph')).pop();
    return {first_frame: g.stats.firstFrameAt, body_end: body ? body.responseEnd : null,
            body_bytes: body ? body.encodedBodySize : null, body_start: body ? body.requestStart : null, body_first: body ? body.responseStart : null, nodes: g.model.n,
            draw_ms: g.stats.lastDrawMs}; }"""


def measure(size: int, runs: int) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        server = start_server(Path(tmp) / "data", None)
        seed_big_graph(server.services.graph_store, size, clusters=max(40, size // 250))
        print(f"{size:>7} topics: seeded in {time.perf_counter() - started:.1f} s", flush=True)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for run in range(runs):
                    context = browser.new_context(viewport={"width": 1024, "height": 700})
                    page = context.new_page()
                    page.goto(server.launch_url)
                    page.wait_for_function(FIRST_FRAME, timeout=120_000, polling=16)
                    f = page.evaluate(FIGURES)
                    label = "cold" if run == 0 else "warm"
                    print(f"  run {run + 1} ({label}): first frame {f['first_frame']:.0f} ms · "
                          f"graph asked {f['body_start'] or 0:.0f} ms, first byte {f['body_first'] or 0:.0f} ms, "
                          f"received {f['body_end'] or 0:.0f} ms "
                          f"({(f['body_bytes'] or 0) / 1e6:.1f} MB) · one frame {f['draw_ms']:.0f} ms · "
                          f"{f['nodes']} nodes", flush=True)
                    context.close()
                browser.close()
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    for size in args.sizes:
        measure(size, args.runs)


if __name__ == "__main__":
    main()
