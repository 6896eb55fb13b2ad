"""A topic's name keeps off its neighbours' discs where a spot beside its own disc is clear: a
row of topics with names wider than the gaps between them is named above and below, never
over the next topic (was: each name to the right of its disc, over its neighbour)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from studyhall.core.contracts.graph import Evidence, Position, PropositionCreated, RunCheckpoint

from tests.support.live_server import start_server
from tests.support.map_labels import labels_at, labels_on_discs

pytestmark = pytest.mark.browser

TITLES = ["Cell biology: common mistakes", "Graph theory: worked example", "Linear algebra: proofs",
          "Roman history: timeline", "Organic chemistry: reactions"]
SPACING = 100.0  # world units between neighbours in the row


def _seed_row(graph_store) -> None:  # type: ignore[no-untyped-def]
    at = datetime(2026, 1, 1, tzinfo=UTC)
    graph_store.append_propositions([PropositionCreated(
        id=f"prop_{i}", node_id=f"t{i}", text=title,
        evidence=tuple(Evidence(source_id="notes", message_id=f"m{i}_{q}", quote=f"Line {q} on {title}.")
                       for q in range(12)),  # discs large enough to point at
        source_id="notes", run_id="seed", at=at) for i, title in enumerate(TITLES)])
    graph_store.append_checkpoint(RunCheckpoint(id="seed", source_id="notes", started_at=at,
                                                finished_at=at, propositions=len(TITLES)))
    graph_store.save_positions({f"t{i}": Position(x=i * SPACING, y=0.0) for i in range(len(TITLES))})


@pytest.mark.parametrize("window", ["light"], indirect=True)
def test_names_in_a_crowded_row_keep_off_the_neighbours_discs(window, tmp_path):
    server = start_server(tmp_path / "data", None)
    _seed_row(server.services.graph_store)
    try:
        page = window.page
        page.set_viewport_size({"width": 1280, "height": 800})  # room for the row and its ends
        page.goto(server.home_url)
        page.wait_for_function("() => window.__studyhall && window.__studyhall.graph"
                               " && window.__studyhall.graph.model && window.__graphLabels", timeout=60_000)
        # The whole row on screen: each neighbour nearer than a name is wide (a name to the
        # right of its disc covers the next one), farther than half a name (one above or below
        # clears it).
        page.evaluate("""() => { const g = window.__studyhall.graph, m = g.model;
            g.camera.x = (m.bounds.minX + m.bounds.maxX) / 2; g.camera.y = 0;
            g.camera.k = (g.width - 320) / (m.bounds.maxX - m.bounds.minX); g.invalidate(); }""")
        labels = labels_at(page)
        widths = [r["w"] for r in labels]
        gap = page.evaluate(f"() => window.__studyhall.graph.camera.k * {SPACING}")
        window.shot("map-labels-clear-row")
        assert widths and max(widths) / 2 < gap < min(widths), (widths, gap)
        radii = page.evaluate("""() => { const g = window.__studyhall.graph, m = g.model;
            return [...g.drawnTopics].map((i) => m.radius[i] * g.camera.k); }""")
        assert min(radii) >= 4, radii  # discs one can point at
        assert not labels_on_discs(page), labels_on_discs(page)
        assert len([r for r in labels if r["kind"] == "topic"]) == len(TITLES), labels
    finally:
        server.stop()


@pytest.mark.parametrize("window", ["light"], indirect=True)
def test_a_click_on_a_name_opens_the_topic_it_names(window, tmp_path):
    # A name sits beside its disc (or, where nothing is clear, over a neighbour's): a click on
    # its words opens that topic, never the neighbour under it, never nothing.
    server = start_server(tmp_path / "data", None)
    _seed_row(server.services.graph_store)
    try:
        page = window.page
        page.set_viewport_size({"width": 1280, "height": 800})
        page.goto(server.home_url)
        page.wait_for_function("() => window.__studyhall && window.__studyhall.graph"
                               " && window.__studyhall.graph.model && window.__graphLabels", timeout=60_000)
        for k in range(len(TITLES)):
            page.evaluate("""() => { const g = window.__studyhall.graph, m = g.model;
                g.select(-1); g.camera.stop(); g.camera.x = (m.bounds.minX + m.bounds.maxX) / 2; g.camera.y = 0;
                g.camera.k = (g.width - 320) / (m.bounds.maxX - m.bounds.minX); g.invalidate(); }""")
            names = sorted((r for r in labels_at(page) if r["kind"] == "topic"), key=lambda r: r["x"])
            assert len(names) == len(TITLES)
            name = names[k]
            # Its far end, away from its own disc: a click there used to open nothing.
            page.mouse.click(name["x"] + name["w"] - 5, name["y"] + name["h"] / 2)
            page.wait_for_function("(n) => window.__studyhall.graph.selected === n", arg=name["node"])
    finally:
        server.stop()
