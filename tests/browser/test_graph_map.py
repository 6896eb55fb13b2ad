"""Home as a map at 1024×700, light and dark: whole graph (named regions only), a region, a
topic zoom and a selected node's local graph — with labels that never overlap each other or
the floating controls at any of those zoom levels, and the filters."""

from __future__ import annotations

import pytest

from tests.support.live_server import start_server
from tests.support.map_graph import seed_map_graph
from tests.support.map_labels import labels_at

pytestmark = pytest.mark.browser

def _view(page, zoom_expr: str) -> None:
    page.evaluate(f"""() => {{ const g = window.__studyhall.graph; const m = g.model;
        {zoom_expr}; g.invalidate(); }}""")


@pytest.mark.parametrize("window", ["light", "dark"], indirect=True)
def test_home_reads_as_a_map_at_every_zoom(window, tmp_path):
    server = start_server(tmp_path / "data", None)
    ids = seed_map_graph(server.services.graph_store)
    try:
        page = window.page
        page.set_viewport_size({"width": 1024, "height": 700})
        page.goto(server.home_url)
        page.wait_for_function("() => window.__studyhall && window.__studyhall.graph"
                               " && window.__studyhall.graph.model && window.__graphLabels", timeout=60_000)
        suffix = page.evaluate("() => document.documentElement.dataset.theme")

        # Whole graph: a map of named regions (at most ~40), no topic labels yet.
        _view(page, "g.camera.fit(m, g.width, g.height)")
        whole = labels_at(page)
        regions = [r for r in whole if r["kind"] == "region"]
        assert 8 <= len(regions) <= 40, len(regions)
        assert not [r for r in whole if r["kind"] == "topic"]
        assert all(len(r["text"]) <= 29 for r in regions)
        window.shot(f"graph-map-whole-{suffix}")

        # A region: its name, its clusters' names and the most important topics.
        _view(page, "const r = m.regions[0]; g.camera.x = r.cx; g.camera.y = r.cy;"
                    " g.camera.k = g.width / ((r.maxX - r.minX) * 5)")
        region = labels_at(page)
        topics = [r for r in region if r["kind"] == "topic"]
        assert topics, region
        # Most important first: the hub on screen (14 quotes, most links) is among those named,
        # and only a few topics are named at this zoom.
        top = page.evaluate("""() => { const g = window.__studyhall.graph, m = g.model; let best = -1;
            for (let i = 0; i < m.n; i++) { const [x, y] = g.camera.toScreen(m.xs[i], m.ys[i], g.width, g.height);
              if (x > 60 && x < g.width - 60 && y > 80 && y < g.height - 80
                  && (best < 0 || m.importance[i] > m.importance[best])) best = i; }
            return best; }""")
        window.shot(f"graph-map-region-{suffix}")
        assert top in {r["node"] for r in topics}, top
        assert len(topics) < 2400 / 10
        hubs = page.evaluate("(ids) => ids.map((id) => window.__studyhall.graph.model.index.get(id))",
                             [ids["hub"]])
        window.shot(f"graph-map-region-{suffix}")

        # Topic zoom: every topic on screen is named where there is room.
        _view(page, "g.camera.k = 60 / m.unit")
        deep = labels_at(page)
        window.shot(f"graph-map-topics-{suffix}")
        assert len([r for r in deep if r["kind"] == "topic"]) > len(topics)

        # Select a hub: its local graph (depth 2) stands out, the dock lists content and links.
        page.evaluate("(i) => window.__studyhall.graph.select(i, {fly: true})", hubs[0])
        page.wait_for_function("() => window.__studyhall.graph.camera.anim === null")
        focus = page.evaluate("() => { const f = window.__studyhall.graph.focus;"
                              " return [f.filter((d) => d === 2).length, f.filter((d) => d === 3).length]; }")
        assert focus[0] >= 3 and focus[1] >= 1, focus
        local = labels_at(page)
        assert local[0]["node"] == hubs[0] and local[0]["kind"] == "topic"
        panel = page.locator(".node-panel")
        panel.get_by_text("Leads to").wait_for()
        assert "A line from the note on" in panel.inner_text()
        window.shot(f"graph-map-local-{suffix}")

        # Filters: only solid nodes are drawn (and hit-testable).
        page.locator(".graph-filters summary").click()
        page.select_option(".graph-filters select[name=state]", "solid")
        page.wait_for_function("() => window.__studyhall.graph.show !== null")
        shown, solid = page.evaluate("""() => { const g = window.__studyhall.graph;
            return [g.show.reduce((a, b) => a + b, 0), g.model.nodes.filter((n) => n.state === 'solid').length]; }""")
        assert shown == solid > 0
        assert "shown" in page.locator(".graph-filters summary").inner_text()
        labels_at(page)  # the open filter panel is a floating control too
        window.shot(f"graph-map-filter-{suffix}")
    finally:
        server.stop()
