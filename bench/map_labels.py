"""Map names over topics' discs: how many of Home's labels cover another topic's disc (drawn
4 px or more in radius), at the zooms a learner reads the map at, in a real browser.

    .venv/bin/python bench/map_labels.py [--theme dark]

Imports the help vault (``tests/support/help_vault.py``: 36 long notes in five folders, hash
embeddings) into the real app, opens Home in Debian's chromium at 1024×700 and, at whole-graph
zoom (``0``), the first region framed, and 20 / 35 / 50 / 80 screen px per spacing, prints the
labels placed and how many of them lie over another topic's disc (``map_labels.ON_DISCS``,
the same check ``tests/browser/test_map_labels_clear.py`` makes). Fewer is better; a label may
still cover a disc when no clear spot is free (it is placed as before rather than dropped).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.support

from playwright.sync_api import sync_playwright

from tests.support.live_server import CHROMIUM, CHROMIUM_ARGS
from tests.support.map_labels import FRAME, labels_on_discs
from tests.support.vault_map import SETTLED, help_vault_server, open_map

REGION = """() => { const g = window.__studyhall.graph, r = g.model.regions[0];
    g.camera.x = r.cx; g.camera.y = r.cy; g.camera.k = g.width / ((r.maxX - r.minX) * 2.2); g.invalidate(); }"""


def measure(page, name: str) -> None:  # type: ignore[no-untyped-def]
    page.evaluate(FRAME)
    placed = len(page.evaluate("() => window.__graphLabels()"))
    print(f"  {name:<14} {placed:>3} labels, {len(labels_on_discs(page)):>3} over a topic's disc")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--theme", default="dark", choices=["light", "dark"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = help_vault_server(Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_context(viewport={"width": 1024, "height": 700},
                                           color_scheme=args.theme, device_scale_factor=1).new_page()
                open_map(page, server)
                print("help vault, 36 notes, 1024×700:")
                page.locator("canvas.graph-canvas").focus()
                page.keyboard.press("0")
                page.wait_for_function(SETTLED)
                measure(page, "whole graph")
                page.evaluate(REGION)
                measure(page, "a region")
                for k in (20, 35, 50, 80):
                    page.evaluate(f"() => {{ const g = window.__studyhall.graph; g.camera.k = {k} / g.model.unit; g.invalidate(); }}")
                    measure(page, f"{k} px/spacing")
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
