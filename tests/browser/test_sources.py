"""Sources and the reader in the real window: the shelf after importing a course folder (notes,
a lecture with its recording, a PDF), a note opened at a cited heading whose wikilinks open the
next note, a transcript at a cited second with the cue highlighted and a click that seeks, a
PDF page, the empty shelf, adding material from the window and removing a source. Screenshots
at 1024×700, light and dark."""

from __future__ import annotations

import re
import time
from dataclasses import replace

import httpx
import pytest

from tests.support.browser_shelf import imported
from tests.support.embedder import HashEmbedder
from tests.support.live_server import start_server
from tests.support.real_vault import make_real_vault, note_path, title_of
from tests.support.shelf import make_shelf
from tests.support.themes import both_themes

pytestmark = pytest.mark.browser

SIZE = {"width": 1024, "height": 700}



def test_the_shelf_and_the_reader_at_cited_places(window, tmp_path):
    course = make_shelf(tmp_path / "Course")
    server = start_server(tmp_path / "data", None, prepare=lambda s: replace(s, embedder=HashEmbedder()))
    try:
        shelf = imported(server, course)
        page = window.page
        page.set_viewport_size(SIZE)
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")

        page.click("a.sources-link")
        page.wait_for_selector("body[data-sources='ready']")
        rows = page.locator(".shelf-row")
        assert rows.count() == 4
        # In the map's words: each note, lecture and PDF is a topic (was "4 ideas").
        count = page.locator(".shelf-count").inner_text()
        assert re.search(r"\b\d+ topics( and \d+ ideas?)? in your graph", count), count
        lecture = page.locator(".shelf-row[data-kind='transcript']")
        assert "with its recording" in lecture.inner_text()
        assert "searchable by meaning" in page.locator(".shelf-count").inner_text()  # not "semantic"
        assert "semantic" not in page.locator(".shelf").inner_text()
        both_themes(window, "sources-01-shelf", ".shelf-list")

        # Keyboard: j moves to the first source, Enter opens it.
        page.keyboard.press("j")
        first = page.evaluate("document.activeElement.textContent")
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.body.dataset.reader && document.body.dataset.reader !== 'loading'")
        assert first in page.locator(".reader-title").inner_text()

        note = shelf["notes/Glycolysis.md"]["id"]
        page.goto(f"{server.url}/#/sources/{note}?at=energy-yield")
        page.wait_for_selector("body[data-reader='note'] #at-energy-yield.at-target")
        assert page.locator("pre.code code.language-python").count() == 1
        assert page.locator(".reader-outline a").count() == 4
        both_themes(window, "sources-02-note-at-heading", "#at-energy-yield.at-target")
        page.click("a.wikilink:has-text('where the cycle runs')")
        page.wait_for_selector("#at-where-it-happens.at-target")
        assert "Krebs cycle" in page.locator(".reader-title").inner_text()

        lec = shelf["lectures/Lecture 04 - Respiration.vtt"]["id"]
        page.goto(f"{server.url}/#/sources/{lec}?t=754")
        page.wait_for_selector("body[data-reader='transcript'] .cue.current")
        current = page.locator(".cue.current")
        assert "12:30" in current.inner_text() and "ATP synthase" in current.inner_text()
        assert current.is_visible() and page.locator(".player audio").count() == 1
        both_themes(window, "sources-03-transcript-at-second", ".cue.current")
        page.locator(".cue-line:has-text('12:54')").click()
        page.wait_for_function("() => location.hash.endsWith('?t=774')")
        assert "12:54" in page.locator(".cue.current").inner_text()
        # The fixture's recording is 2 s long: a moment past its end is said, not silently lost.
        page.wait_for_selector(".past-end:not([hidden])")
        assert "The recording ends at 0:02, before 12:54" in page.locator(".past-end").inner_text()
        both_themes(window, "sources-03b-past-the-recording", ".past-end")
        page.keyboard.press("j")
        assert "13:00" in page.locator(".cue.current").inner_text()

        pdf = shelf["Chapter 5.pdf"]["id"]
        page.goto(f"{server.url}/#/sources/{pdf}?page=2")
        page.wait_for_selector("body[data-reader='pdf'] #page-2.at-target")
        assert "Page 2 of 3" in page.locator("#page-2").inner_text()
        both_themes(window, "sources-04-pdf-page", "#page-2.at-target")

        page.goto(f"{server.url}/#/sources/note_nothing_here")
        page.wait_for_selector("body[data-reader='error'] .reader-error")
        assert "no source" in page.locator(".reader-error").inner_text()
        assert not window.page_errors and not window.external
    finally:
        server.stop()


def test_empty_shelf_add_material_and_remove(window, tmp_path):
    course = make_shelf(tmp_path / "Course")
    server = start_server(tmp_path / "data", None, prepare=lambda s: replace(s, embedder=HashEmbedder()))
    try:
        page = window.page
        page.set_viewport_size(SIZE)
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        page.goto(f"{server.url}/#/sources")
        page.wait_for_selector("body[data-sources='empty'] .shelf-empty")
        both_themes(window, "sources-05-empty", ".shelf-empty")

        page.click(".shelf-empty button.primary")
        page.fill("#import-path", str(course))
        page.keyboard.press("Enter")
        page.wait_for_selector("dialog button:has-text('Show in graph')", timeout=60_000)
        # The summary counts the course material too, not only the notes (issue 30 item 4).
        summary = page.locator("dialog .import-summary").inner_text()
        assert "2 notes imported" in summary, summary
        assert "1 lecture and 1 PDF ready to ask about" in summary, summary
        both_themes(window, "sources-06-import-summary", "dialog .import-summary")
        page.keyboard.press("Escape")
        page.wait_for_selector("body[data-sources='ready'] .shelf-row[data-kind='pdf']")
        assert page.locator(".shelf-row").count() == 4

        # The same folder again, nothing changed: said so, not "0 notes imported, 2 unchanged".
        page.click("button:has-text('Add material…')")
        page.fill("#import-path", str(course))
        page.keyboard.press("Enter")
        page.wait_for_selector("dialog button:has-text('Show in graph')", timeout=60_000)
        again = page.locator("dialog .import-summary").inner_text()
        assert again.strip() == "Nothing new since the last import: 4 files unchanged", again
        page.keyboard.press("Escape")

        page.once("dialog", lambda d: d.accept())
        page.click(".shelf-row[data-kind='pdf'] button:has-text('Remove')")
        page.wait_for_selector(".shelf-row.status-deleted[data-kind='pdf']")
        assert "Removed" in page.locator(".shelf-row[data-kind='pdf'] .status-pill").inner_text()
        assert not window.page_errors and not window.external
    finally:
        server.stop()


def test_a_shelf_imported_without_meaning_search_says_so_in_plain_words(window, tmp_path):
    course = make_shelf(tmp_path / "Course")
    server = start_server(tmp_path / "data", None, prepare=lambda s: replace(s, embedder=HashEmbedder()))
    try:
        headers = {"Authorization": f"Bearer {server.token}"}
        with httpx.Client(base_url=server.url, headers=headers, timeout=30) as http:
            run = http.post("/api/graph/import", json={"path": str(course), "embed": False}).json()
            deadline = time.monotonic() + 60
            while http.get(f"/api/graph/import/{run['run_id']}").json()["status"] == "running":
                assert time.monotonic() < deadline, "the import did not finish"
                time.sleep(0.05)
        page = window.page
        page.set_viewport_size(SIZE)
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        page.goto(f"{server.url}/#/sources")
        page.wait_for_selector("body[data-sources='ready'] .shelf-row")
        count = page.locator(".shelf-count").inner_text()
        assert "searchable by exact words only (meaning search is off)" in count, count
        # Said once, for the whole shelf, not on every row.
        assert page.locator(".shelf-row", has_text="exact words only").count() == 0
        assert "semantic" not in page.locator(".shelf").inner_text()
        both_themes(window, "sources-06-words-only", ".shelf-list")
    finally:
        server.stop()


def _vtt(cues: list[tuple[float, float, str]]) -> str:
    def at(s: float) -> str:
        ms = round(s * 1000)
        return f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"

    return "WEBVTT\n\n" + "\n\n".join(f"{at(a)} --> {at(b)}\n{text}" for a, b, text in cues) + "\n"


def test_a_place_in_a_lecture_opens_its_own_cue_not_the_one_before(window, tmp_path):
    # Cues that start between whole seconds: a place written as whole seconds (t=308 for a cue
    # at 308.6 s) lands inside the cue before it, which then lights up.
    course = tmp_path / "Course"
    course.mkdir()
    starts = [300.0, 304.3, 308.6, 312.9, 317.2]
    cues = [(s, s + 4.3, f"Point {i + 1}: the proton gradient drives the rotor, step {i + 1}.")
            for i, s in enumerate(starts)]
    (course / "Gradient.vtt").write_text(_vtt(cues), encoding="utf-8")
    server = start_server(tmp_path / "data", None, prepare=lambda s: replace(s, embedder=HashEmbedder()))
    try:
        lecture = imported(server, course)["Gradient.vtt"]["id"]
        page = window.page
        page.set_viewport_size(SIZE)
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        page.goto(f"{server.url}/#/sources/{lecture}")
        page.wait_for_selector("body[data-reader='transcript'] .cue")
        page.locator(".cue-line:has-text('Point 3')").click()
        page.wait_for_function("() => location.hash.endsWith('?t=308.6')")
        page.reload()  # the address alone: what a citation or a bookmark opens
        page.wait_for_selector("body[data-reader='transcript'] .cue.current")
        assert "Point 3" in page.locator(".cue.current").inner_text()
    finally:
        server.stop()


def test_a_long_shelf_finds_a_source_by_the_words_typed(window, tmp_path):
    # 30 notes in six folders: every word typed must be in a source's name, folder or kind.
    vault = make_real_vault(tmp_path / "Vault", notes=30)
    server = start_server(tmp_path / "data", None, prepare=lambda s: replace(s, embedder=HashEmbedder()))
    try:
        shelf = imported(server, vault.root)
        assert len(shelf) == 30
        page = window.page
        page.set_viewport_size(SIZE)
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        page.click("a.sources-link")
        page.wait_for_selector("body[data-sources='ready'] .shelf-find:not([hidden])")
        page.keyboard.press("/")  # the shelf's own find box, not the graph's search
        assert page.evaluate("document.activeElement.classList.contains('shelf-filter')")
        assert page.locator(".shelf-filter").input_value() == ""  # the "/" was not typed

        folder, name = note_path(4).split("/")
        words = f"{name.split()[1]} {folder.split()[0]}"  # one word of the name, one of the folder
        page.keyboard.type(words.upper())  # in any case
        expected = sorted(title_of(p) for p in shelf
                          if all(w in p.lower() for w in words.lower().split()))
        assert 1 <= len(expected) < 30
        titles = page.locator(".shelf-row .shelf-title").all_inner_texts()
        assert sorted(titles) == expected
        assert page.locator(".shelf-matches").inner_text() == f"{len(expected)} of 30 sources"
        both_themes(window, "sources-07-find", ".shelf-row")

        page.locator(".shelf-filter").press("Enter")  # opens the first match
        page.wait_for_selector("body[data-reader='note']")
        assert titles[0] in page.locator(".reader-title").inner_text()

        page.go_back()
        page.wait_for_selector("body[data-sources='ready']")
        page.fill(".shelf-filter", "nothing-like-this")
        assert "No source has “nothing-like-this”" in page.locator(".shelf-none").inner_text()
        assert page.locator(".shelf-row").count() == 0
        page.click(".shelf-none button")
        assert page.locator(".shelf-row").count() == 30
        assert page.locator(".shelf-matches").inner_text() == ""
        assert not window.page_errors
    finally:
        server.stop()


def test_a_short_shelf_has_no_find_box_and_slash_still_searches_the_graph(window, tmp_path):
    course = make_shelf(tmp_path / "Course")
    server = start_server(tmp_path / "data", None, prepare=lambda s: replace(s, embedder=HashEmbedder()))
    try:
        imported(server, course)
        page = window.page
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        page.click("a.sources-link")
        page.wait_for_selector("body[data-sources='ready']")
        assert page.locator(".shelf-find").is_hidden()
        page.keyboard.press("/")
        page.wait_for_function("() => location.hash === '' || location.hash === '#/'")
    finally:
        server.stop()
