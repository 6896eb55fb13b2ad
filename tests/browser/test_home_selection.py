"""Selecting several ideas on Home's map at 1024×700: Shift+click three nodes, the dock says
"3 selected" and lists them (each removable), their local graph is drawn over the dimmed rest,
and flashcards made from them (a scripted writer) carry the scope "3 selected ideas"; Escape
clears; the keyboard path (Shift+Enter in search, Tab to the dock) does the same; a plain click
still selects one node, whose dock is filled by one request. Screenshots light and dark."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.artifact_graph import TEXTS, cards_answer, seed_heap_graph
from tests.support.embedder import HashEmbedder
from tests.support.live_server import LiveServer, start_server
from tests.support.themes import both_themes

pytestmark = pytest.mark.browser

HEAP = ("n_heap", "n_ops", "n_sift")
SETTLED = "() => window.__studyhall.graph.camera.anim === null"


def heap_server(data_dir: Path, script: dict[str, Any] | None) -> LiveServer:
    """The heap graph (three linked ideas in a cluster, one unrelated) with scripted writers."""
    def prepare(services: Any) -> Any:
        seed_heap_graph(services.graph_store)
        return replace(services, embedder=HashEmbedder())

    return start_server(data_dir, script, prepare=prepare)


def open_app(page, server: LiveServer) -> None:
    page.set_viewport_size({"width": 1024, "height": 700})
    page.goto(server.launch_url)
    page.wait_for_selector("body[data-ready='1']")


def api(server: LiveServer) -> httpx.Client:
    return httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {server.token}"})


def wait_for_map(page) -> None:
    page.wait_for_function("() => window.__studyhall && window.__studyhall.graph"
                           " && window.__studyhall.graph.model && window.__studyhall.graph.model.n === 4",
                           timeout=60_000)


def click_node(page, node_id: str, modifiers: list[str] | None = None) -> None:
    """Bring the node to the middle of the map (clear of the floating controls), then click it
    there as the learner would."""
    page.evaluate("""(id) => { const g = window.__studyhall.graph; const i = g.model.index.get(id);
        g.camera.stop(); g.camera.x = g.model.xs[i]; g.camera.y = g.model.ys[i];
        g.camera.k = g.focusZoom(); g.invalidate(); }""", node_id)
    canvas = page.locator("canvas.graph-canvas")
    box = canvas.bounding_box()
    assert box is not None
    canvas.click(position={"x": box["width"] / 2, "y": box["height"] / 2}, modifiers=modifiers or [])


def picked(page) -> list[str]:
    return page.evaluate("""() => { const g = window.__studyhall.graph;
        return [...g.picked].map((i) => g.model.nodes[i].id); }""")


def dock_names(page) -> list[str]:
    return page.locator(".selection-panel .picked-name").all_inner_texts()


def fit_whole_graph(page) -> None:
    page.evaluate("() => { const g = window.__studyhall.graph; g.camera.fit(g.model, g.width, g.height); }")
    page.wait_for_function(SETTLED)


def test_shift_click_three_ideas_and_make_flashcards_from_them(window, tmp_path):
    server = heap_server(tmp_path / "data", {"flashcards_writer": [cards_answer()]})
    page = window.page
    try:
        open_app(page, server)
        wait_for_map(page)
        for node in HEAP:
            click_node(page, node, ["Shift"])
        title = page.locator(".selection-panel .dock-title")
        title.wait_for()
        assert title.inner_text() == "3 selected"
        assert dock_names(page) == [TEXTS[n] for n in HEAP]
        assert picked(page) == list(HEAP)
        # Their local graph is drawn over the rest: the unrelated idea is dimmed.
        depth = page.evaluate("""() => { const g = window.__studyhall.graph;
            return Object.fromEntries(g.model.nodes.map((n, i) => [n.id, g.focus[i]])); }""")
        assert depth == {"n_heap": 1, "n_ops": 1, "n_sift": 1, "n_graph": 0}
        assert page.evaluate("() => window.__studyhall.graph.selected") == -1

        # Shift+click on a selected one takes it out; the dock's × does too; both come back.
        click_node(page, "n_ops", ["Shift"])
        page.wait_for_function("() => document.querySelector('.selection-panel .dock-title')"
                               "?.textContent === '2 selected'")
        page.get_by_role("button", name=f"Remove “{TEXTS['n_sift']}” from the selection").click()
        page.wait_for_function("() => document.querySelector('.selection-panel .dock-title')"
                               "?.textContent === '1 selected'")
        assert picked(page) == ["n_heap"]
        click_node(page, "n_ops", ["Control"])  # Ctrl+click adds as Shift+click does
        click_node(page, "n_sift", ["Shift"])
        page.wait_for_function("() => document.querySelector('.selection-panel .dock-title')"
                               "?.textContent === '3 selected'")
        fit_whole_graph(page)
        labels = page.evaluate("() => window.__graphLabels().map((l) => l.text)")
        assert {TEXTS[n] for n in HEAP} <= set(labels), labels
        both_themes(window, "home-selection-3", ".selection-panel")

        page.get_by_role("button", name="Make study material from these…").click()
        dialog = page.locator("dialog.make-modal")
        dialog.wait_for()
        assert "From 3 selected ideas" in dialog.inner_text()
        dialog.get_by_label("Notes").uncheck()
        dialog.get_by_label("How many cards").fill("3")
        window.shot("home-selection-make-light")
        dialog.get_by_role("button", name="Make").click()
        toast = page.locator(".toast", has_text="Writing flashcards from 3 selected ideas")
        toast.wait_for()
        toast.get_by_role("button", name="See progress").click()
        page.wait_for_selector("body[data-view='artifacts']")
        row = page.locator(".artifact-row[data-kind='flashcards']")
        row.wait_for(timeout=30_000)
        assert "From 3 selected ideas" in row.locator(".artifact-facts").inner_text()
        with api(server) as http:
            [made] = http.get("/api/artifacts").json()["artifacts"]
        assert made["scope"]["type"] == "selection" and made["scope"]["label"] == "3 selected ideas"
        assert sorted(made["scope"]["node_ids"]) == sorted(HEAP)
    finally:
        server.stop()


def test_escape_clears_and_the_keyboard_reaches_everything(window, tmp_path):
    server = heap_server(tmp_path / "data", None)
    page = window.page
    try:
        open_app(page, server)
        wait_for_map(page)
        # Escape on the map clears a selection made with the mouse.
        click_node(page, "n_heap", ["Shift"])
        click_node(page, "n_sift", ["Shift"])
        page.wait_for_selector(".selection-panel")
        page.locator("canvas.graph-canvas").press("Escape")
        page.wait_for_selector(".dock-hint")
        assert picked(page) == [] and page.evaluate("() => window.__studyhall.graph.focus") is None

        # The keyboard: "/" searches, Shift+Enter adds the result to the selection.
        for node in ("n_sift", "n_graph", "n_ops"):
            page.keyboard.press("/")
            search = page.locator(".search-input")
            assert page.evaluate("() => document.activeElement.classList.contains('search-input')")
            search.fill(TEXTS[node])
            page.wait_for_function("(t) => [...document.querySelectorAll('.search-result')]"
                                   ".some((li) => li.textContent === t)", arg=TEXTS[node])
            page.keyboard.press("Shift+Enter")
            page.wait_for_function("(id) => { const g = window.__studyhall.graph;"
                                   " return [...g.picked].some((i) => g.model.nodes[i].id === id); }",
                                   arg=node)
            page.keyboard.press("Escape")  # leaves the search box
        assert picked(page) == ["n_sift", "n_graph", "n_ops"]
        assert page.locator(".selection-panel .dock-title").inner_text() == "3 selected"

        # Tab reaches the dock's "Make…", Enter opens it; closing it keeps the selection.
        make = page.get_by_role("button", name="Make study material from these…")
        for _ in range(40):
            page.keyboard.press("Tab")
            if make.evaluate("(el) => el === document.activeElement"):
                break
        else:
            raise AssertionError("Tab never reached “Make study material from these…”")
        page.keyboard.press("Enter")
        dialog = page.locator("dialog.make-modal")
        dialog.wait_for()
        assert "From 3 selected ideas" in dialog.inner_text()
        page.keyboard.press("Escape")
        dialog.wait_for(state="detached")
        assert page.locator(".selection-panel .dock-title").inner_text() == "3 selected"

        # The × of the first name from the keyboard: the focus stays on the list.
        first_remove = page.locator(".selection-panel .picked-remove").first
        first_remove.focus()
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.querySelector('.selection-panel .dock-title')"
                               "?.textContent === '2 selected'")
        assert page.evaluate("() => document.activeElement.classList.contains('picked-remove')")
        assert dock_names(page) == [TEXTS["n_graph"], TEXTS["n_ops"]]
        # Escape inside the dock clears it.
        page.keyboard.press("Escape")
        page.wait_for_selector(".dock-hint")
        assert picked(page) == []

        # A plain click still selects one node, and its dock is one request.
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url) if "/api/graph/" in r.url else None)
        click_node(page, "n_ops", ["Shift"])
        click_node(page, "n_sift")
        page.wait_for_function("(t) => document.querySelector('.node-panel .node-text')?.textContent === t",
                               arg=TEXTS["n_sift"])
        panel = page.locator(".node-panel")
        builds = panel.locator("section.node-linked", has_text="Builds on")
        assert builds.locator("li").all_inner_texts() == [TEXTS["n_ops"]]
        assert picked(page) == []
        assert page.evaluate("() => window.__studyhall.graph.selected") == \
            page.evaluate("() => window.__studyhall.graph.model.index.get('n_sift')")
        details = [u for u in asked if "/api/graph/nodes/" in u]
        assert len(details) == 1 and details[0].endswith("/api/graph/nodes/n_sift"), asked
        assert not [u for u in asked if "/api/graph/links/" in u]
    finally:
        server.stop()
