"""What the reader offers says where it comes from, with no model: Quiz me on page 1 of a PDF
asks only about page 1 (and says that only one question fits, offering the whole PDF); at 0:00
in a lecture it says there is too little yet and offers the whole lecture; a lecture passage in
Ask shown from a sentence deep inside it is labelled and linked at that sentence's second."""

from __future__ import annotations

import pytest

from tests.support.ask_window import fast_search
from tests.support.browser_shelf import imported_shelf
from tests.support.live_server import start_server
from tests.support.themes import both_themes

pytestmark = pytest.mark.browser

SIZE = {"width": 1024, "height": 700}


def launched(window, tmp_path, size=SIZE):  # type: ignore[no-untyped-def]
    """A live server (no script, no key) with the course shelf imported, the window launched:
    (server, the sources by path)."""
    server = start_server(tmp_path / "data", None, prepare=fast_search)
    try:
        shelf = imported_shelf(server, tmp_path / "Course")
        window.page.set_viewport_size(size)
        window.page.goto(server.launch_url)
        window.page.wait_for_selector("body[data-ready='1']")
    except BaseException:
        server.stop()
        raise
    return server, shelf


def test_quiz_me_stops_at_the_place_or_offers_the_whole_source(window, tmp_path):
    server, shelf = launched(window, tmp_path)
    try:
        pdf, lecture = shelf["Chapter 5.pdf"]["id"], shelf["lectures/Lecture 04 - Respiration.vtt"]["id"]
        page = window.page

        # Page 1 of a three-page PDF: one question, on page 1, and the whole PDF offered.
        page.goto(f"{server.url}/#/sources/{pdf}?page=1")
        page.wait_for_selector("body[data-reader='pdf'] #page-1")
        page.click(".reader-actions .quiz-me-button")
        page.wait_for_selector(".reader-quiz[data-quiz='open'] .quiz-q", timeout=45_000)
        assert "from 1 passage up to page 1" in page.locator(".quiz-from").inner_text()
        assert page.locator(".quiz-q").count() == 1
        assert "Only one question fits the text up to page 1" in page.locator(".quiz-few").inner_text()
        both_themes(window, "reader-quiz-one-fits", ".quiz-few")
        page.click(".quiz-few .quiz-whole")
        page.wait_for_selector(".reader-quiz[data-quiz='open'] .quiz-from:has-text('on the whole PDF')")
        assert page.locator(".quiz-q").count() == 3 and page.locator(".quiz-few").count() == 0

        # A lecture not played yet: nothing before 0:00, said plainly, the whole lecture offered.
        page.goto(f"{server.url}/#/sources/{lecture}")
        page.wait_for_selector("body[data-reader='transcript'] .cue")
        page.click(".reader-actions .quiz-me-button")
        page.wait_for_selector(".reader-quiz[data-quiz='error']", timeout=45_000)
        error = page.locator(".reader-quiz .inline-error").inner_text()
        assert "too little text up to 0:00" in error and page.locator(".quiz-q").count() == 0
        both_themes(window, "reader-quiz-too-little", ".reader-quiz .inline-error")
        page.click(".reader-quiz .inline-error .quiz-whole")
        page.wait_for_selector(".reader-quiz[data-quiz='open'] .quiz-q")
        assert "on the whole lecture" in page.locator(".quiz-from").inner_text()

    finally:
        server.stop()


def test_a_lecture_passage_shown_from_a_later_sentence_links_to_its_second(window, tmp_path):
    server, shelf = launched(window, tmp_path)
    try:
        lecture = shelf["lectures/Lecture 04 - Respiration.vtt"]["id"]
        page = window.page
        # Passages only: the passage starts at 11:54, the words it shows start at 12:18.
        page.goto(f"{server.url}/#/ask")
        page.fill(".ask-input", "How does ATP synthase turn like a rotor?")
        page.keyboard.press("Enter")
        page.wait_for_selector(".ask-exchange[data-state='no-model']")
        rotor = page.locator(".ask-passage").filter(has=page.locator("mark.passage-closest", has_text="rotor, step 1:"))
        assert rotor.locator(".passage-text").inner_text().startswith("… ATP synthase turns like a rotor")
        assert rotor.locator(".passage-place").inner_text() == " · 12:18"
        assert rotor.locator("a.passage-link").get_attribute("href").endswith(f"{lecture}?t=738")
    finally:
        server.stop()


def test_quiz_me_under_the_title_counts_what_was_read_before_scrolling_back_up(window, tmp_path):
    # To press Quiz me under the title the learner scrolls back to the top; "up to where you
    # are" is still the furthest they read, not the note's first heading.
    server, shelf = launched(window, tmp_path, {"width": 1024, "height": 420})  # the note scrolls
    try:
        note = shelf["notes/Glycolysis.md"]["id"]
        page = window.page
        page.goto(f"{server.url}/#/sources/{note}")
        page.wait_for_selector("body[data-reader='note'] #at-regulation")
        scroll_to = """(y) => new Promise((done) => { const s = document.querySelector('.reader-scroll');
            s.scrollTo({ top: y === 'end' ? s.scrollHeight : y, behavior: 'instant' });
            requestAnimationFrame(() => requestAnimationFrame(done)); })"""
        page.evaluate(scroll_to, "end")  # read to the end
        page.click("#reader-tab-quiz")  # the dock's tab
        page.click(".reader-quiz .quiz-start")  # "Quiz me on what I've read", down here
        page.wait_for_selector(".reader-quiz[data-quiz='open'] .quiz-q", timeout=45_000)
        read = page.locator(".quiz-from").inner_text()
        assert "up to Glycolysis." not in read, read  # further than the first heading
        page.evaluate(scroll_to, 0)  # back up to the title, where the other Quiz me is
        page.click(".reader-actions .quiz-me-button")
        page.wait_for_function("(was) => document.querySelector('.quiz-from')?.innerText === was"
                               " && document.querySelector('.reader-quiz').dataset.quiz === 'open'",
                               arg=read, timeout=45_000)
    finally:
        server.stop()
