""""Study this" at 1024×700, light and dark: the map's dock offers it on a selected note; a
click opens the new session titled with the note, its material shown as the note it studies
(its sections), and the tutor's first words from it with only real citation markers. With no
model key the same button opens the note's Quiz me and says why in one line."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import httpx
import pytest

from tests.support.embedder import HashEmbedder
from tests.support.live_server import start_server
from tests.support.notes import write
from tests.support.server import imported_over_http
from tests.support.themes import both_themes

pytestmark = pytest.mark.browser

HEAPS = """# Heaps

A heap is a complete binary tree stored in an array; its smallest item sits on top.

## Sift down

Sift down swaps a node with its smaller child until the heap property holds again.

## Building a heap

Floyd's method builds a heap in linear time by sifting down from the last parent.
"""
SCRIPT = {
    "prober": [{"text": "Your note on heaps keeps the smallest item on top [1]. Floyd builds a "
                        "heap in linear time [2] [9]. What do you already know about sift down?"}],
    "labeler": [{"text": "Heaps"}],
}


def vault(root: Path) -> Path:
    (root / ".obsidian").mkdir(parents=True)
    write(root, "Heaps.md", HEAPS)
    write(root, "Graphs.md", "# Graphs\n\nA graph has vertices and edges. See [[Heaps]].\n")
    return root


def http_client(server) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=60,
                        headers={"Authorization": f"Bearer {server.token}"})


def dock_on_heaps(window, tmp_path: Path, script: dict | None):
    """A live server with the vault imported, the window on Home with Heaps in the dock."""
    server = start_server(tmp_path / "data", script, prepare=with_hash_embedder)
    with http_client(server) as http:
        imported_over_http(http, vault(tmp_path / "Vault"))
        node_id = next(n["id"] for n in http.get("/api/graph").json()["nodes"]
                       if n["text"] == "Heaps")
    page = window.page
    page.set_viewport_size({"width": 1024, "height": 700})
    page.goto(f"{server.launch_url}#/?node={node_id}")
    page.wait_for_function("() => document.querySelector('.node-panel .node-text')"
                           "?.textContent === 'Heaps'", timeout=60_000)
    return server, page


def with_hash_embedder(services):
    return replace(services, embedder=HashEmbedder())


def test_the_dock_studies_a_note_in_a_new_session(window, tmp_path):
    server, page = dock_on_heaps(window, tmp_path, SCRIPT)
    try:
        button = page.locator(".node-panel .study-this")
        assert button.inner_text() == "Study this"
        both_themes(window, "study-this-dock", ".node-panel .study-this")

        button.click()
        page.wait_for_url("**#/session/*", timeout=30_000)
        page.wait_for_function("() => document.querySelector('.session-title')?.textContent"
                               " === 'Heaps'")
        page.wait_for_function("() => document.querySelector('.transcript')?.innerText"
                               ".includes('What do you already know about sift down?')",
                               timeout=30_000)
        page.wait_for_function("() => document.body.dataset.turn === 'idle'")  # re-rendered
        card = page.locator(".study-card")
        assert "studying your note" in card.locator("summary").inner_text().lower()
        assert "2 sections" in card.locator("summary").inner_text()
        card.locator("summary").click()
        page.wait_for_function("() => document.querySelector('.study-card')?.open")
        assert card.locator("li").all_text_contents() == ["Sift down", "Building a heap"]
        said = page.locator(".transcript").inner_text()
        assert "I'd like to study my note “Heaps”." in said
        # Real markers are chips that open the note at the passage; the invented one is gone.
        assert "[9]" not in said and "9" not in said.split("linear time")[1].split("?")[0]
        chips = page.locator(".msg-assistant a.cite-chip")
        assert chips.all_inner_texts() == ["1", "2"]
        assert all(h.startswith("#/sources/note") for h in
                   chips.evaluate_all("(els) => els.map((e) => e.getAttribute('href'))"))
        both_themes(window, "study-this-session", ".study-card")

        # The reader offers it too: the note's own page starts a second session on it.
        note_id = chips.first.get_attribute("href").split("/")[2].split("?")[0]
        page.goto(f"{server.url}/#/sources/{note_id}")
        page.wait_for_selector(".reader-actions .study-this")
        both_themes(window, "study-this-reader", ".reader-actions .study-this")
        first_session = page.url
        page.locator(".reader-actions .study-this").click()
        page.wait_for_function("(u) => location.href !== u && location.hash.startsWith('#/session/')",
                               arg=first_session, timeout=30_000)
        page.wait_for_function("() => document.querySelector('.study-card')")
        assert window.page_errors == [] and window.external == []
    finally:
        server.stop()


def test_with_no_key_it_opens_the_notes_quiz_me_and_says_why(window, tmp_path):
    server, page = dock_on_heaps(window, tmp_path, None)
    try:
        page.locator(".node-panel .study-this").click()
        page.wait_for_url("**#/sources/*", timeout=30_000)
        why = page.locator(".reader-quiz .quiz-why")
        assert why.inner_text() == ("A study session needs a model, and none is set up yet "
                                    "(Settings → Where your models run). Meanwhile, Quiz me on this note checks "
                                    "what you know.")
        page.wait_for_function("() => document.querySelector('.reader-title')?.textContent"
                               ".includes('Heaps')")
        page.wait_for_function("() => ['open', 'error'].includes("
                               "document.querySelector('.reader-quiz .quiz-me')?.parentElement"
                               "?.dataset.quiz)", timeout=30_000)
        both_themes(window, "study-this-no-key", ".quiz-why")
        # In the reader it quizzes in place and says why under its buttons (once: the Quiz me
        # pane that already says it is gone when the note is opened afresh).
        note = page.url.split("#/sources/")[1].split("?")[0]
        page.evaluate("(id) => { location.hash = `#/sources/${id}`; }", note)
        page.reload()
        page.wait_for_selector(".reader-actions .study-this")
        assert page.locator(".quiz-why").count() == 0
        page.locator(".reader-actions .study-this").click()
        line = page.locator(".reader-head .study-why")
        assert line.inner_text().startswith("A study session needs a model")
        assert page.locator(".quiz-why").count() == 0
        page.wait_for_function("() => document.querySelector('.reader-quiz .quiz-me')"
                               "?.parentElement?.dataset.quiz === 'open'", timeout=30_000)
        # Studying the note: its questions come from all of it, and say so.
        assert "on the whole note" in page.locator(".reader-quiz .quiz-from").inner_text()
        both_themes(window, "study-this-reader-no-key", ".study-why")
        with http_client(server) as http:
            assert http.get("/api/chats").json() == []  # no session it could not run
    finally:
        server.stop()
