"""Ideas as satellites (issue 28 item 1), over the help vault's shape with ideas added inside a
few notes' topics, at 1024×700 in light and dark:
- whole-graph and region zoom paint topics only: no idea drawn, named or hit, no tie drawn;
  the overview and the canvas's name count topics, ideas and links between topics;
- topic zoom draws each topic's ideas on rings around it, each ring inside its topic's room (no
  idea in another topic's disc or ring), hit-testable, named on hover, no region name among them, no
  label overlapping another, a satellite, a large topic disc or a floating control
  (``labels_at``);
- a clicked satellite is selected: the dock shows the idea and links back to its topic; the
  depth control frames its local graph (1: its topic at topic zoom; 3: wider), its ring drawn
  at any zoom;
- the keyboard walks from a topic to its ideas at topic zoom;
- search for an idea selects it and frames it with its topic."""

from __future__ import annotations

import httpx
import pytest

from tests.support.map_labels import labels_at
from tests.support.vault_ideas import CLAIMS, add_ideas
from tests.support.vault_map import (
    ASTRAY,
    SETTLED,
    help_vault_server,
    no_repeats,
    node_index,
    open_map,
    zoom_on,
)

pytestmark = pytest.mark.browser

PLAN = {"Backlinks": 30, "Status bar": 4, "Outgoing links": 5, "Tabs": 3, "Canvas": 6}
# Per idea: drawn this frame, hit at its place, its screen point.
IDEAS = """(ids) => { const g = window.__studyhall.graph, m = g.model, drawn = new Set(g.satellites);
    const origin = g.canvas.getBoundingClientRect();
    return ids.map((id) => { const i = m.index.get(id);
      const [x, y] = g.camera.toScreen(m.xs[i], m.ys[i], g.width, g.height);
      return {i, drawn: drawn.has(i), hit: g.nodeAt(x, y) === i, px: x + origin.left, py: y + origin.top,
              on: x > 0 && y > 0 && x < g.width && y < g.height}; }); }"""


def zoom(page) -> float:
    """The camera's zoom in screen px per typical topic spacing."""
    return page.evaluate("() => { const g = window.__studyhall.graph; return g.camera.k * g.model.unit; }")


@pytest.mark.parametrize("window", ["light", "dark"], indirect=True)
def test_ideas_are_satellites_of_their_topic_only_at_topic_zoom(window, tmp_path):
    server = help_vault_server(tmp_path)
    try:
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {server.token}"}) as http:
            body = http.get("/api/graph/map").json()
        ideas = add_ideas(server.services.graph_store, body, PLAN)
        every = [i for ids in ideas.values() for i in ids]
        page = window.page
        open_map(page, server)
        page.wait_for_function("(n) => window.__studyhall.graph.model.ideaCount === n", arg=len(every))
        theme = page.evaluate("() => document.documentElement.dataset.theme")
        topics = body["count"]

        # What the map holds, said in the learner's words.
        hint = page.locator(".dock-hint").inner_text()
        assert f"{topics} topics · {len(every)} ideas · " in hint, hint
        legend = [int(c) for c in page.locator(".legend-count").all_inner_texts()]
        assert sum(legend) == topics, legend  # the map's topics (an idea counts in its topic's)
        aria = page.locator("canvas.graph-canvas").get_attribute("aria-label")
        assert aria.startswith(f"Your map: {topics} topics in ") and f"{len(every)} ideas" in aria, aria

        # Whole graph: topics only — no idea drawn, hit or named.
        page.locator("canvas.graph-canvas").focus()
        page.keyboard.press("0")
        page.wait_for_function(SETTLED)
        whole = labels_at(page)
        no_repeats(whole)
        seen = page.evaluate(IDEAS, every)
        assert not any(s["drawn"] or s["hit"] for s in seen), seen
        assert not [r for r in whole if r["kind"] == "idea"]
        # The map's edges join topics; an idea's tie to its topic is never drawn (its ring says it).
        edges = page.evaluate("""() => { const m = window.__studyhall.graph.model;
            return {map: [...m.mapEdges].every((i) => m.topicOf[i] === -1), pairs: m.mapEdges.length / 2,
                    ties: [...m.ideaEdges].filter((i, e) => m.topicOf[i] === m.ideaEdges[e ^ 1]).length}; }""")
        assert edges["map"] and edges["ties"] == 0, edges
        assert f" · {edges['pairs']} links · " in hint, hint
        window.shot(f"map-satellites-whole-{theme}")

        # A region: still topics only.
        page.evaluate("""() => { const g = window.__studyhall.graph, r = g.model.regions[0];
            g.camera.x = r.cx; g.camera.y = r.cy; g.camera.k = g.width / ((r.maxX - r.minX) * 2.2); g.invalidate(); }""")
        region = labels_at(page)
        no_repeats(region)
        assert not any(s["drawn"] or s["hit"] for s in page.evaluate(IDEAS, every))
        window.shot(f"map-satellites-region-{theme}")

        # Topic zoom on Backlinks: its ideas on rings around it, each hit where it is drawn.
        hub = node_index(page, "Backlinks")
        zoom_on(page, hub, 130)
        deep = labels_at(page)
        no_repeats(deep)
        # The topics' own names there: no region or cluster name sits inside a ring.
        assert not [r for r in deep if r["kind"] in ("region", "cluster")], deep
        # Every ring keeps to its topic's room: no idea inside another topic's disc or ring.
        assert not page.evaluate(ASTRAY)
        mine = page.evaluate(IDEAS, ideas["Backlinks"])
        window.shot(f"map-satellites-topic-{theme}")
        assert all(s["on"] and s["drawn"] and s["hit"] for s in mine), [s for s in mine if not (s["on"] and s["drawn"] and s["hit"])]
        assert "Backlinks" in [r["text"] for r in deep if r["kind"] == "topic"]
        window.shot(f"map-satellites-topic-{theme}")

        # Hover a satellite: its label, pointing away from its topic, overlapping nothing.
        page.mouse.move(mine[3]["px"], mine[3]["py"])
        page.wait_for_function("(i) => window.__studyhall.graph.hovered === i", arg=mine[3]["i"])
        hovered = labels_at(page)
        named = [r for r in hovered if r["kind"] == "idea"]
        assert [r["node"] for r in named] == [mine[3]["i"]], named

        # Click it: the idea is selected, the dock shows it and which topic it is in.
        page.mouse.click(mine[3]["px"], mine[3]["py"])
        page.wait_for_function(SETTLED)
        panel = page.locator(".node-panel")
        panel.locator(".node-topic").wait_for()
        assert panel.locator(".node-text").inner_text() == f"Backlinks {CLAIMS[3]}."
        assert panel.locator(".node-topic").inner_text() == "An idea in Backlinks."
        assert page.evaluate("() => window.__studyhall.graph.selected") == mine[3]["i"]
        assert all(s["drawn"] for s in page.evaluate(IDEAS, ideas["Backlinks"]))
        selected = labels_at(page)
        no_repeats(selected)
        assert ("topic", hub) in {(r["kind"], r["node"]) for r in selected}  # whose idea it is
        assert ("idea", mine[3]["i"]) in {(r["kind"], r["node"]) for r in selected}
        window.shot(f"map-satellites-selected-{theme}")
        # The depth control frames the idea's local graph — at depth 1 its topic, at topic zoom;
        # at 3 a wider graph — and the idea's ring stays drawn at any zoom it frames.
        zooms = {}
        for depth in (1, 3, 2):
            page.locator(".depth-step", has_text=str(depth)).click()
            page.wait_for_function(SETTLED)
            zooms[depth] = zoom(page)
            [at] = page.evaluate(IDEAS, [ideas["Backlinks"][3]])
            assert at["on"] and at["drawn"] and at["hit"], (depth, at)
            assert page.evaluate("() => window.__studyhall.graph.selected") == mine[3]["i"]
            no_repeats(labels_at(page))
        assert zooms[1] >= 90 > zooms[3] and zooms[3] < zooms[2] <= zooms[1], zooms
        window.shot(f"map-satellites-depth-{theme}")
        panel.locator(".node-topic button").click()
        page.wait_for_function("(i) => window.__studyhall.graph.selected === i", arg=hub)
        page.wait_for_function(SETTLED)

        # The keyboard: at topic zoom, from the topic an arrow towards an idea lands on an idea.
        page.evaluate("(i) => window.__studyhall.graph.select(i)", hub)
        zoom_on(page, hub, 130)
        page.locator("canvas.graph-canvas").focus()
        page.keyboard.press("ArrowRight")  # lands on the selected topic
        assert page.evaluate("() => window.__studyhall.graph.hovered") == hub
        page.keyboard.press("ArrowDown")  # the ring below it holds ideas
        at = page.evaluate("() => window.__studyhall.graph.hovered")
        assert at in {s["i"] for s in mine}, at
        assert page.locator(".graph-said").inner_text().endswith("an idea in Backlinks. Enter opens it.")
        page.keyboard.press("ArrowUp")
        assert page.evaluate("() => window.__studyhall.graph.hovered") != at

        # Search for an idea: it selects the idea and frames its local graph, its ring drawn.
        page.keyboard.press("0")
        page.wait_for_function(SETTLED)
        page.keyboard.press("/")
        page.keyboard.type("updates as soon as a note is saved")
        page.locator(".search-result", has_text="Canvas updates").first.wait_for(timeout=60_000)
        page.locator(".search-result", has_text="Canvas updates").first.click()
        page.wait_for_function(SETTLED)
        wanted = ideas["Canvas"][2]
        found = page.evaluate(IDEAS, [wanted])[0]
        assert page.evaluate("() => window.__studyhall.graph.selected") == found["i"]
        assert found["on"] and found["drawn"] and found["hit"], found
        # Framed with its local graph: its topic on screen too.
        [topic] = page.evaluate(IDEAS, [body["ids"][body["labels"].index("Canvas")]])
        assert topic["on"], topic
        labels_at(page)
        assert not window.page_errors
    finally:
        server.stop()
