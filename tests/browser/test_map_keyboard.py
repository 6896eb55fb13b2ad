"""Home's map from the keyboard alone, 1024×700: focus the map, the first arrow lands on a node
and reads it out, an arrow towards a linked idea moves to a linked idea, every node (the
unlinked one too) can be reached with arrows, Enter opens the one under the keyboard in the
dock, Shift+arrows still pan. Screenshots light and dark."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.support.artifact_graph import TEXTS, seed_heap_graph
from tests.support.embedder import HashEmbedder
from tests.support.live_server import start_server
from tests.support.themes import both_themes

pytestmark = pytest.mark.browser

LINKS = {("n_ops", "n_heap"), ("n_sift", "n_ops")}
ARROWS = {(1, 0): "ArrowRight", (-1, 0): "ArrowLeft", (0, 1): "ArrowDown", (0, -1): "ArrowUp"}


def linked(a: str, b: str) -> bool:
    return (a, b) in LINKS or (b, a) in LINKS


def under_keyboard(page) -> str:
    return page.evaluate("() => { const g = window.__studyhall.graph; "
                         "return g.hovered >= 0 ? g.model.nodes[g.hovered].id : null; }")


def towards(page, a: str, b: str) -> str:
    """The arrow pointing from node ``a`` to node ``b`` on the map (its main axis)."""
    dx, dy = page.evaluate("""([a, b]) => { const m = window.__studyhall.graph.model;
        const i = m.index.get(a), j = m.index.get(b);
        return [m.xs[j] - m.xs[i], m.ys[j] - m.ys[i]]; }""", [a, b])
    way = ((1 if dx > 0 else -1), 0) if abs(dx) >= abs(dy) else (0, (1 if dy > 0 else -1))
    return ARROWS[way]


def test_arrows_walk_the_map_and_enter_opens_the_dock(window, tmp_path):
    def prepare(services):
        seed_heap_graph(services.graph_store)
        return replace(services, embedder=HashEmbedder())

    server = start_server(tmp_path / "data", None, prepare=prepare)
    try:
        page = window.page
        page.set_viewport_size({"width": 1024, "height": 700})
        page.goto(server.home_url)
        page.wait_for_function("() => window.__studyhall?.graph?.model?.n === 4", timeout=60_000)
        assert page.locator("h1").first.inner_text() == "Your knowledge graph"
        page.focus("canvas.graph-canvas")
        page.keyboard.press("ArrowRight")
        start = under_keyboard(page)
        assert start is not None
        assert page.locator(".graph-said").inner_text().startswith(f"{TEXTS[start]}:")

        # Towards a linked idea: a linked idea.
        neighbour = next(b for b in TEXTS if linked(start, b)) if any(linked(start, b) for b in TEXTS) else None
        if neighbour is not None:
            page.keyboard.press(towards(page, start, neighbour))
            assert linked(start, under_keyboard(page))

        # Every idea, the unlinked one too, is reachable with arrows alone.
        seen = {under_keyboard(page)}
        for _ in range(12):
            missing = [n for n in TEXTS if n not in seen]
            if not missing:
                break
            here = under_keyboard(page)
            page.keyboard.press(towards(page, here, missing[0]))
            seen.add(under_keyboard(page))
        assert seen == set(TEXTS), seen

        at = under_keyboard(page)
        page.keyboard.press("Enter")
        page.wait_for_function("(t) => document.querySelector('.node-panel .node-text')?.textContent === t",
                               arg=TEXTS[at])
        assert page.evaluate("() => document.activeElement.tagName") == "CANVAS"  # keep walking
        both_themes(window, "map-keyboard-enter-opens", ".node-panel")

        before = page.evaluate("() => window.__studyhall.graph.camera.x")
        page.keyboard.press("Shift+ArrowRight")
        page.wait_for_function("(x) => window.__studyhall.graph.camera.x !== x", arg=before)
        assert under_keyboard(page) == at  # panning does not move the keyboard's place
    finally:
        server.stop()
