"""Home over the real-shaped 173-note vault (``tests/support/real_vault.py``: long notes, nested
headings, code, callouts, embeds, aliased and block links) with ideas inside 80 of its topics,
half of them learned — the density a learner reaches after a few weeks — at 1024×700, light
and dark (issue 28):
- whole-graph zoom reads as a map: its regions named and at most 8 topics beside them;
- topic zoom names topics — learned ones among them — no label overlapping another, a
  satellite, the pointed-at topic's disc or a floating control (``labels_at``);
- no two topics' discs touch and no idea lies inside another topic's disc or ring."""

from __future__ import annotations

from dataclasses import replace

import httpx
import pytest

from tests.support.embedder import HashEmbedder
from tests.support.live_server import start_server
from tests.support.map_labels import labels_at
from tests.support.real_vault import make_real_vault
from tests.support.vault_ideas import add_ideas
from tests.support.vault_map import ASTRAY, SETTLED, import_vault, no_repeats, open_map, zoom_on

pytestmark = pytest.mark.browser

# Topics whose discs (a diamond's tips) overlap.
TOUCHING = """() => { const m = window.__studyhall.graph.model, out = [];
    const topics = []; for (let i = 0; i < m.n; i++) if (m.topicOf[i] === -1) topics.push(i);
    for (const a of topics) for (const b of topics) if (a < b
        && Math.hypot(m.xs[a] - m.xs[b], m.ys[a] - m.ys[b]) < (m.radius[a] + m.radius[b]) * 1.25)
      out.push([m.nodes[a].text, m.nodes[b].text]);
    return out; }"""


@pytest.mark.parametrize("window", ["light", "dark"], indirect=True)
def test_a_dense_real_vault_reads_as_a_map_and_names_its_topics_up_close(window, tmp_path):
    vault = make_real_vault(tmp_path / "vault", notes=173)
    server = start_server(tmp_path / "data", None,
                          prepare=lambda s: replace(s, embedder=HashEmbedder()))
    try:
        import_vault(server, vault.root)
        with httpx.Client(base_url=server.url,
                          headers={"Authorization": f"Bearer {server.token}"}) as http:
            body = http.get("/api/graph/map").json()
        assert body["count"] == 173
        titles = body["labels"][:80]
        add_ideas(server.services.graph_store, body, {t: 3 + i % 9 for i, t in enumerate(titles)})
        page = window.page
        open_map(page, server)
        page.wait_for_function("() => window.__studyhall.graph.model.ideaCount > 0")
        theme = page.evaluate("() => document.documentElement.dataset.theme")
        assert not page.evaluate(TOUCHING)
        assert not page.evaluate(ASTRAY)

        page.locator("canvas.graph-canvas").focus()
        page.keyboard.press("0")
        page.wait_for_function(SETTLED)
        whole = labels_at(page)
        no_repeats(whole)
        window.shot(f"map-real-vault-whole-{theme}")
        kinds = [r["kind"] for r in whole]
        assert kinds.count("region") >= 5, whole
        assert kinds.count("topic") <= 8, whole

        # Up close on a learned topic with ideas: topics named all around, learned ones too.
        hub = page.evaluate("""() => { const m = window.__studyhall.graph.model;
            for (const i of m.order) if (m.rings.get(i) && m.state[i] !== 2) return i; return -1; }""")
        assert hub >= 0
        zoom_on(page, hub, 120)
        close = labels_at(page)
        no_repeats(close)
        window.shot(f"map-real-vault-topic-{theme}")
        named = [r["node"] for r in close if r["kind"] == "topic"]
        on_screen = page.evaluate("""() => { const g = window.__studyhall.graph, m = g.model; let n = 0;
            for (let i = 0; i < m.n; i++) { if (m.topicOf[i] !== -1) continue;
              const [x, y] = g.camera.toScreen(m.xs[i], m.ys[i], g.width, g.height);
              if (x > 0 && y > 0 && x < g.width && y < g.height) n += 1; }
            return n; }""")
        # 16 of 30 (when the other labels kept off every learned disc: 5).
        assert len(named) >= on_screen * 0.45, (len(named), on_screen)
        learned = page.evaluate("(ids) => ids.filter((i) => window.__studyhall.graph.model.state[i] !== 2).length",
                                named)
        assert learned >= 3, learned
        assert not window.page_errors
    finally:
        server.stop()
