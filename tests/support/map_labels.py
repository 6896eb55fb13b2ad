"""The labels Home's map has placed on screen, read in a browser test after checking that none
overlaps another or a floating control (search box, filters, legend, zoom buttons), and that
none but a pointed-at one covers an idea drawn as a satellite, nor does another node's label
cover a pointed-at topic's disc."""

from __future__ import annotations

FLOATS = ".graph-search, .legend, .zoom-controls, .graph-filters"
# Labels covering a satellite drawn this frame; the labels placed first — the hovered, selected
# or searched-for node's and an idea's topic's — may.
COVERED = """() => { const g = window.__studyhall.graph, m = g.model, out = [];
    const pointed = new Set([g.hovered, g.selected, ...g.picked, ...g.marked].flatMap((i) => (i >= 0 ? [i, m.topicOf[i]] : [])));
    for (const i of g.satellites) { const [x, y] = g.camera.toScreen(m.xs[i], m.ys[i], g.width, g.height);
      for (const r of g.labelRects) if (!pointed.has(r.node) && x > r.x && x < r.x + r.w && y > r.y && y < r.y + r.h)
        out.push([r.text, m.nodes[i].text]); }
    return out; }"""
# Other nodes' labels over the disc of a pointed-at topic (hovered, selected, searched for; an
# idea's topic).
ON_POINTED = """() => { const g = window.__studyhall.graph, m = g.model, out = [];
    const pointed = new Set([g.hovered, g.selected, ...g.picked, ...g.marked].flatMap((i) => (i >= 0 ? [i, m.topicOf[i]] : [])));
    for (const i of pointed) { if (i < 0 || m.topicOf[i] !== -1) continue; const r = Math.max(m.radius[i] * g.camera.k, 2);
      const [x, y] = g.camera.toScreen(m.xs[i], m.ys[i], g.width, g.height);
      for (const l of g.labelRects) if (l.node >= 0 && !pointed.has(l.node) && x - r < l.x + l.w && x + r > l.x
          && y - r < l.y + l.h && y + r > l.y) out.push([l.text, m.nodes[i].text]); }
    return out; }"""
FRAME = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def _overlap(a: dict, b: dict) -> bool:
    return (a["x"] < b["x"] + b["w"] and a["x"] + a["w"] > b["x"]
            and a["y"] < b["y"] + b["h"] and a["y"] + a["h"] > b["y"])


def labels_at(page) -> list[dict]:  # type: ignore[no-untyped-def]
    """The placed labels of the frame now on screen, after checking none overlaps another or a
    floating control (search box, filters, legend, zoom buttons)."""
    page.evaluate(FRAME)
    labels = page.evaluate("() => window.__graphLabels()")
    floats = page.evaluate(f"""() => [...document.querySelectorAll({FLOATS!r})].map((el) => {{
        const r = el.getBoundingClientRect(); return {{x: r.left, y: r.top, w: r.width, h: r.height}}; }})""")
    assert len(floats) == 4
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            assert not _overlap(a, b), (a, b)
        for f in floats:
            assert not _overlap(a, f), (a, f)
    covered = page.evaluate(COVERED)
    assert not covered, covered
    on_pointed = page.evaluate(ON_POINTED)
    assert not on_pointed, on_pointed
    return labels
# Labels over a topic's disc drawn at least SEEN_DISC (labels.js) px in radius, other than
# the label's own node's (or its topic's): [label text, covered topic].
SEEN_DISC = 4
ON_DISCS = """(least) => { const g = window.__studyhall.graph, m = g.model, out = [];
    for (const i of g.drawnTopics) { const r = m.radius[i] * g.camera.k; if (r < least) continue;
      const [x, y] = g.camera.toScreen(m.xs[i], m.ys[i], g.width, g.height);
      for (const l of g.labelRects) if (l.node !== i && !(l.node >= 0 && m.topicOf[l.node] === i)
          && x - r < l.x + l.w && x + r > l.x && y - r < l.y + l.h && y + r > l.y)
        out.push([l.text, m.nodes[i].title || m.nodes[i].text]); }
    return out; }"""


def labels_on_discs(page) -> list[list[str]]:  # type: ignore[no-untyped-def]
    """The labels of the frame now on screen that cover another topic's visible disc."""
    return page.evaluate(ON_DISCS, SEEN_DISC)
