"""The reader renders an Obsidian note as Obsidian shows it: callouts as boxes (titled, folded,
nested), the vault's own pictures (embeds, a width, an anchor, a relative path), a mermaid
diagram drawn as a picture and a broken one left as code with a plain line. Screenshots at
1024×700, light and dark."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.support.browser_shelf import imported
from tests.support.embedder import HashEmbedder
from tests.support.live_server import start_server
from tests.support.picture_vault import make_picture_vault
from tests.support.themes import both_themes

pytestmark = pytest.mark.browser


def test_callouts_pictures_and_diagrams_in_the_reader(window, tmp_path):
    vault, _ = make_picture_vault(tmp_path)
    server = start_server(tmp_path / "data", None, prepare=lambda s: replace(s, embedder=HashEmbedder()))
    try:
        note = imported(server, vault)["notes/Interface.md"]
        page = window.page
        page.set_viewport_size({"width": 1024, "height": 700})
        page.goto(f"{server.launch_url}#/sources/{note['id']}")
        page.wait_for_selector("body[data-reader='note'] .reader-prose[data-diagrams='done']",
                               timeout=60_000)
        prose = page.locator(".reader-prose")
        assert "[!note]" not in prose.inner_text() and "[!tip]" not in prose.inner_text()

        boxed = page.locator(".callout[data-callout='note']")
        assert boxed.locator(".callout-title").inner_text() == "Where things are"
        assert "A second line of the same callout." in boxed.inner_text()
        assert "Where things are" not in boxed.locator("p:not(.callout-title)").inner_text()
        folded = page.locator("details.callout[data-callout='tip']")
        assert folded.get_attribute("open") is None
        assert not folded.locator("code").is_visible()
        folded.locator("summary").click()
        assert folded.locator("code").is_visible()
        warning = page.locator(".callout[data-callout='warning']")
        assert warning.locator(":scope > .callout-title").inner_text() == "Warning"
        nested = warning.locator(".callout[data-callout='example']")
        assert nested.locator(".callout-title").inner_text() == "Nested inside"
        assert page.locator(".prose blockquote").inner_text() == "An ordinary quotation stays a quotation."

        pictures = page.locator("img.vault-image")
        assert pictures.count() == 3
        page.wait_for_function("() => [...document.querySelectorAll('img.vault-image')]"
                               ".every(i => i.complete && i.naturalWidth > 0)")
        assert pictures.nth(1).get_attribute("width") == "300"
        assert pictures.nth(1).bounding_box()["width"] == 300
        assert pictures.nth(2).get_attribute("alt") == "Ribbon on the left"
        assert "(embedded: missing-picture.png)" in prose.inner_text()
        assert "(embedded: status-bar-desktop.png" not in prose.inner_text()

        drawn = page.locator("figure.diagram img.diagram-picture")
        assert drawn.count() == 1
        page.wait_for_function("() => document.querySelector('.diagram-picture').naturalWidth > 50")
        assert "flowchart LR" in drawn.get_attribute("alt")
        failed = page.locator("pre.diagram-failed code.language-mermaid")
        assert failed.count() == 1 and "A --> (((" in failed.inner_text()
        assert "could not be drawn" in page.locator(".diagram-note").inner_text()
        page.evaluate("() => { document.querySelector('.reader-scroll').scrollTop = 0; }")
        both_themes(window, "reader-01-callouts-pictures", ".reader-prose")
        page.locator("#at-flow").evaluate("el => el.scrollIntoView({block: 'start'})")
        both_themes(window, "reader-02-diagrams", "figure.diagram")
    finally:
        server.stop()
