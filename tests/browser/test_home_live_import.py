"""Home during an import: not the welcome screen but the graph growing as notes are merged, under
a strip with the import's progress that goes away when it is done."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace

import httpx
import pytest

from tests.support.embedder import HashEmbedder
from tests.support.live_server import start_server
from tests.support.notes import write_vault
from tests.support.themes import both_themes

pytestmark = pytest.mark.browser


async def _new_event() -> asyncio.Event:
    return asyncio.Event()


def test_home_shows_the_graph_growing_while_notes_are_imported(window, tmp_path):
    vault = write_vault(tmp_path / "vault")
    embedder = HashEmbedder()
    server = start_server(tmp_path / "data", None, prepare=lambda s: replace(s, embedder=embedder))
    headers = {"Authorization": f"Bearer {server.token}"}
    try:
        gate = server.call(_new_event)
        embedder.gate = gate  # the notes are merged, then the import waits at its embedding stage
        page = window.page
        page.set_viewport_size({"width": 1024, "height": 700})
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_selector(".shell.welcome-mode")  # a first launch: nothing yet
        with httpx.Client(base_url=server.url, headers=headers, timeout=30) as http:
            run_id = http.post("/api/graph/import", json={"path": str(vault)}).json()["run_id"]

            # The welcome gives way to the graph as the import merges notes, under its progress.
            strip = page.locator(".import-strip")
            strip.wait_for(state="visible")
            assert "Importing ‘vault’" in strip.inner_text()
            page.wait_for_function("() => Number(document.body.dataset.graphNodes || 0) > 0",
                                   timeout=30_000)
            assert http.get(f"/api/graph/import/{run_id}").json()["status"] == "running"
            assert page.locator(".shell.welcome-mode").count() == 0
            grown = page.evaluate("() => window.__studyhall.graph.model.n")
            # Every note's topic is in before the embedding stage ends: one node per note (was 6
            # with the "Graphs: Degree" heading node, before issue 28).
            assert grown == 5
            strip.filter(has_text=re.compile(r"reading for meaning · \d+ of 5")).wait_for()
            assert page.locator(".import-strip [role=progressbar]").is_visible()
            # The strip is a floating control: no graph label runs under it.
            box = strip.bounding_box()
            for label in page.evaluate("() => window.__graphLabels()"):
                assert (label["y"] >= box["y"] + box["height"] or label["y"] + label["h"] <= box["y"]
                        or label["x"] >= box["x"] + box["width"] or label["x"] + label["w"] <= box["x"])
            both_themes(window, "home-live-import")
            page.locator(".activity-toggle").click()  # the dock words the stage as the strip does
            row = page.locator(".activity-item.status-running")
            row.filter(has_text=re.compile(r"reading for meaning · \d+ of 5")).wait_for()
            # The dock's panel keeps clear of the graph's zoom buttons at 1024x700.
            panel = page.locator(".activity-panel").bounding_box()
            zoom = page.locator(".zoom-controls").bounding_box()
            assert panel["x"] + panel["width"] <= zoom["x"] or panel["y"] + panel["height"] <= zoom["y"]
            both_themes(window, "home-live-import-dock")
            page.locator(".activity-toggle").click()

            server.call(lambda: _release(gate))
            strip.wait_for(state="hidden", timeout=60_000)
            assert http.get(f"/api/graph/import/{run_id}").json()["status"] == "done"
        # Done: the whole graph, placed by the server's upkeep (no client-side guesses left).
        page.wait_for_function("() => window.__studyhall.graph.model.nodes.every((n) => n.position)",
                               timeout=30_000)
        assert page.evaluate("() => window.__studyhall.graph.model.n") == 5  # one node per note (issue 28)
    finally:
        server.stop()


async def _release(event: asyncio.Event) -> None:
    event.set()
