"""Home's map over the help vault's shape (``tests/support/help_vault.py``) for the browser
tests: a server with the vault imported, the map opened at 1024×700, and small probes."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx

from tests.support.embedder import HashEmbedder
from tests.support.help_vault import write_help_vault
from tests.support.live_server import start_server

SETTLED = "() => window.__studyhall.graph.camera.anim === null"


def help_vault_server(tmp_path: Path) -> Any:
    """A live server (hash embeddings) with the help vault imported; the caller stops it."""
    vault = write_help_vault(tmp_path / "vault")
    server = start_server(tmp_path / "data", None, prepare=lambda s: replace(s, embedder=HashEmbedder()))
    try:
        import_vault(server, vault)
    except BaseException:
        server.stop()
        raise
    return server


def import_vault(server, vault) -> None:
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {server.token}"},
                      timeout=60) as http:
        run = http.post("/api/graph/import", json={"path": str(vault)}).json()
        deadline = time.monotonic() + 300  # the 173-note vault on a loaded 2-core box
        while True:
            status = http.get(f"/api/graph/import/{run['run_id']}").json()["status"]
            if status not in ("queued", "running") or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert status == "done", status


def no_repeats(labels: list[dict]) -> None:
    texts = [r["text"].casefold() for r in labels]
    assert len(texts) == len(set(texts)), sorted(texts)


def node_index(page, text: str) -> int:
    return page.evaluate("(t) => window.__studyhall.graph.model.nodes.findIndex((n) => n.text === t)", text)


def open_map(page, server) -> None:  # type: ignore[no-untyped-def]
    """The window at 1024×700 on the map, once its model (and its label probe) exist."""
    page.set_viewport_size({"width": 1024, "height": 700})
    page.goto(server.launch_url)
    page.wait_for_function("() => window.__studyhall && window.__studyhall.graph"
                           " && window.__studyhall.graph.model && window.__graphLabels", timeout=60_000)


# Ideas drawn inside another topic's reach: its disc (a diamond's tips) or its outer ring.
ASTRAY = """() => { const m = window.__studyhall.graph.model, out = [];
    const reach = (j) => { const rings = m.rings.get(j);
      return rings ? rings[rings.length - 1][0] : m.radius[j] * 1.25; };
    for (let i = 0; i < m.n; i++) { const t = m.topicOf[i]; if (t < 0) continue;
      for (let j = 0; j < m.n; j++) if (j !== t && m.topicOf[j] === -1
          && Math.hypot(m.xs[i] - m.xs[j], m.ys[i] - m.ys[j]) - m.radius[i] < reach(j))
        out.push([m.nodes[i].text, m.nodes[j].text]); }
    return out; }"""


def zoom_on(page, index: int, per_spacing: float) -> None:
    page.evaluate("""([i, z]) => { const g = window.__studyhall.graph, m = g.model;
        g.camera.stop(); g.camera.x = m.xs[i]; g.camera.y = m.ys[i]; g.camera.k = z / m.unit; g.invalidate(); }""",
                  [index, per_spacing])
