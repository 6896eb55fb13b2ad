"""Home's first paint: from opening the page to the graph's first drawn frame, in a real browser.

    .venv/bin/python bench/graph_paint.py [--sizes 10000 100000] [--runs 2] [--full]
    .venv/bin/python bench/graph_paint.py --notes 6500 [--ideas 3]

Seeds a graph of N topics (``tests/support/big_graph.py``: positions, clusters, evidence,
edges) — or, with ``--notes``, a vault's map: N note topics each with ``--ideas`` ideas (the
map paints only the topics until the learner zooms into one) — serves it with the real app (``tests/support/live_server.py``) and first reads the map
once over HTTP: the server's cold read (it folds every ledger line and builds the map), after
which it saves its fold cache — the bench waits for that, as a restarted app restores from it.
Then it opens Home in Debian's chromium through Playwright at 1024×700, ``--runs`` times, and
prints, in ms from the navigation's start: when Home asked for its map's first part
(``GET /api/graph/map?limit=…``, the most important nodes), its first byte and its end, the
boot's milestones, the first frame drawn and, for a graph bigger than one part, when the whole
graph was drawn; with the parts' sizes; then the median draw time of a frame while panning at
whole-graph zoom, zooming, and panning at region and at topic zoom. Targets (issue 14): first frame < 1500 ms at 10k,
< 3000 ms at 100k. ``--full`` also times the whole ``GET /api/graph`` body on the server.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from studyhall.server.runtime.library.graph_reader import SAVE_AFTER

from tests.support.big_graph import seed_big_graph, seed_vault_graph
from tests.support.live_server import CHROMIUM, CHROMIUM_ARGS, start_server

FIRST_FRAME = """() => { const g = window.__studyhall && window.__studyhall.graph;
    return !!(g && g.stats.firstFrameAt); }"""
FIGURES = """() => { const g = window.__studyhall.graph;
    const parts = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/graph/map'));
    const first = parts.find((e) => e.name.includes('limit='));
    const marks = performance.getEntriesByType('mark').filter((m) => m.name.startsWith('home:'));
    return {first_frame: g.stats.firstFrameAt, body_start: first ? first.requestStart : null,
            body_first: first ? first.responseStart : null, body_end: first ? first.responseEnd : null,
            body_bytes: first ? first.encodedBodySize : null,
            all_bytes: parts.reduce((a, e) => a + e.encodedBodySize, 0), nodes: g.model.n,
            draw_ms: g.stats.lastDrawMs, build_ms: g.model.built.ms, separated: g.model.built.separated,
            marks: Object.fromEntries(marks.map((m) => [m.name.slice(5), Math.round(m.startTime)])),
            script: Math.round((performance.getEntriesByType('resource').find((e) => e.name.endsWith('/app.js')) || {}).responseEnd || 0)}; }"""
# Median draw times over 20 frames each: a pan at whole-graph zoom, a zoom in (×1.25 a frame),
# and pans at region and at topic zoom (30 and 120 screen px per typical topic spacing: the
# same view of the map whatever the graph's scale; ideas are satellites at the second).
MOTION = """async () => { const g = window.__studyhall.graph, m = g.model;
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const median = (v) => v.sort((a, b) => a - b)[v.length >> 1];
    const out = {};
    const run = async (name, step) => { const t = []; for (let i = 0; i < 20; i++) { step(i); await frame(); t.push(g.stats.lastDrawMs); } out[name] = median(t); };
    g.camera.fit(m, g.width, g.height);
    await run("pan", () => g.camera.panBy(7, 3));
    await run("zoom", (i) => g.camera.zoomAt(g.width / 2, g.height / 2, i < 10 ? 1.25 : 0.8, g.width, g.height));
    for (const z of [30, 120]) {
      Object.assign(g.camera, { x: m.xs[0], y: m.ys[0], k: z / m.unit });
      await run(`pan_at_${z}`, (i) => g.camera.panBy(i < 10 ? -20 : 20, 5));
    }
    return out; }"""
COMPLETE = "() => performance.getEntriesByName('home:map-complete').length > 0"


def cold_read(server, size: int) -> None:
    """The server's first read of the map (fold + build), then its fold-cache save awaited."""
    import httpx

    with httpx.Client(base_url=server.url, timeout=600,
                      headers={"Authorization": f"Bearer {server.token}"}) as http:
        started = time.perf_counter()
        first = http.get("/api/graph/map", params={"limit": 20_000})
        print(f"  server's cold read of the first part: {(time.perf_counter() - started) * 1000:.0f} ms "
              f"({len(first.content) / 1e6:.1f} MB)", flush=True)
    graph = server.data_dir / "graph"
    lines = sum(f.read_bytes().count(b"\n") for f in graph.glob("*.jsonl"))
    if lines < SAVE_AFTER:
        return  # too small a graph for a fold cache
    cache = graph / ".fold-cache"
    deadline, last = time.time() + 300, -1
    while time.time() < deadline:  # saved in the background once a big fold is done
        size_now = cache.stat().st_size if cache.exists() else -1
        if size_now > 0 and size_now == last:
            break
        last = size_now
        time.sleep(1.0)


def measure(size: int, runs: int, full: bool, ideas: int | None = None) -> None:
    """``ideas``: seed a vault's map of ``size`` notes with that many ideas each instead."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        server = start_server(Path(tmp) / "data", None)
        if ideas is None:
            seed_big_graph(server.services.graph_store, size, clusters=max(40, size // 250))
            print(f"{size:>7} topics: seeded in {time.perf_counter() - started:.1f} s", flush=True)
        else:
            seed_vault_graph(server.services.graph_store, size, ideas=ideas,
                             clusters=max(40, size // 250))
            print(f"{size:>7} notes with {ideas} ideas each: seeded in "
                  f"{time.perf_counter() - started:.1f} s", flush=True)
        size *= 1 + (ideas or 0)
        cold_read(server, size)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for run in range(runs):
                    context = browser.new_context(viewport={"width": 1024, "height": 700})
                    page = context.new_page()
                    page.goto(server.home_url)  # at launch the window may open on Today
                    page.wait_for_function(FIRST_FRAME, timeout=120_000, polling=16)
                    if size > 20_000:
                        page.wait_for_function(COMPLETE, timeout=120_000, polling=50)
                    f = page.evaluate(FIGURES)
                    marks = " · ".join(f"{k} {v}" for k, v in f["marks"].items())
                    print(f"  run {run + 1}: first frame {f['first_frame']:.0f} ms "
                          f"({f['nodes']} nodes in the end) · map asked {f['body_start'] or 0:.0f} ms, "
                          f"first byte {f['body_first'] or 0:.0f} ms, received "
                          f"{f['body_end'] or 0:.0f} ms ({(f['body_bytes'] or 0) / 1e6:.1f} MB; "
                          f"all parts {f['all_bytes'] / 1e6:.1f} MB) · one frame "
                          f"{f['draw_ms']:.0f} ms", flush=True)
                    print(f"      app.js loaded {f['script']} ms · {marks}", flush=True)
                    print(f"      last model build {f['build_ms']:.0f} ms "
                          f"({f['separated']} topics moved apart)", flush=True)
                    motion = page.evaluate(MOTION)
                    print("      median frame: " + " · ".join(f"{k} {v:.1f} ms" for k, v in motion.items()),
                          flush=True)
                    context.close()
                    time.sleep(3)  # the page's last reads (the sources list, ...) end first
                browser.close()
            if full:
                import httpx
                with httpx.Client(base_url=server.url, timeout=600,
                                  headers={"Authorization": f"Bearer {server.token}"}) as http:
                    for run in range(2):
                        started = time.perf_counter()
                        size = len(http.get("/api/graph").content)
                        print(f"  full body GET /api/graph ({'cold' if run == 0 else 'warm'}): "
                              f"{(time.perf_counter() - started) * 1000:.0f} ms, "
                              f"{size / 1e6:.1f} MB", flush=True)
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--full", action="store_true", help="also time GET /api/graph")
    parser.add_argument("--notes", type=int, help="a vault's map of this many notes instead")
    parser.add_argument("--ideas", type=int, default=3, help="ideas per note (with --notes)")
    args = parser.parse_args()
    if args.notes:
        measure(args.notes, args.runs, args.full, args.ideas)
        return
    for size in args.sizes:
        measure(size, args.runs, args.full)


if __name__ == "__main__":
    main()
