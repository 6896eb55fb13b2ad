"""Ask in the real window with scripted models: a question whose answer streams (caret, Stop)
with citation chips that open the reader at the cited second, the coverage case in words and
the passages used; a follow-up in the same conversation; the history re-opened after a reload;
and, with no model at all, the best-matching passages shown as "not an answer" with the way to
add a key. Screenshots at 1024×700, light and dark."""

from __future__ import annotations

import threading

import pytest

from tests.support.ask_window import fast_search, holding_answerer, import_course, write_course
from tests.support.live_server import start_server
from tests.support.themes import both_themes

pytestmark = pytest.mark.browser

SIZE = {"width": 1024, "height": 700}
GRADES = {"json": {"grades": [{"n": 1, "grade": "answers"}, {"n": 2, "grade": "related"}]}}
SCRIPT = {
    "reranker": [GRADES, GRADES],
    "rewriter": [{"json": {"query": "Why can mark and sweep reclaim cycles of objects?"}}],
    "answerer": [
        {"text": "Mark and sweep works in two phases. First it **marks** every object reachable "
                 "from the roots [1]; then the sweep phase frees every unmarked object and returns "
                 "its memory [1]. Objects that point at each other but are unreachable are still "
                 "freed, unlike with reference counting."},
        {"text": "Because each object in a cycle is still referenced by another one, its count "
                 "never reaches zero [1]."},
    ],
}



def test_ask_streams_cites_follows_up_and_keeps_a_history(window, tmp_path):
    course = write_course(tmp_path / "Course")
    gate = threading.Event()
    server = start_server(tmp_path / "data", SCRIPT, prepare=holding_answerer(gate))
    try:
        import_course(server, course)
        page = window.page
        page.set_viewport_size(SIZE)
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        page.click("a.ask-link")
        page.wait_for_selector("body[data-view='ask'] .ask-empty")
        assert page.locator(".ask-hint").is_hidden()  # a (scripted) model is set up

        page.locator(".ask-head h1").click()  # the box has focus on arrival: take it away
        page.keyboard.press("/")  # ... and "/" brings it back
        page.keyboard.type("How does mark and sweep work?")
        page.keyboard.press("Enter")
        page.wait_for_selector(".ask-exchange[data-state='streaming'] .ask-answer .caret")
        assert page.locator(".ask-q-text").inner_text() == "How does mark and sweep work?"
        assert page.locator(".ask-stop").is_visible() and page.locator(".ask-send").is_hidden()
        assert "From your material" in page.locator(".ask-case").inner_text()
        both_themes(window, "ask-01-streaming", ".ask-exchange[data-state='streaming'] .caret")
        gate.set()
        page.wait_for_selector(".ask-exchange[data-state='done']")
        chips = page.locator(".ask-answer .cite-chip")
        assert chips.count() == 2 and chips.first.inner_text() == "1"
        assert "[1]" not in page.locator(".ask-answer").inner_text()
        assert page.locator(".ask-passage").count() >= 1
        assert page.locator(".ask-passage.cited .passage-place").first.inner_text() == " · 12:34"
        # The cited moment to jump to says so (was "Also about this:", over the same passage).
        assert page.locator(".ask-suggest-title").first.inner_text() == "Go to:"
        assert page.locator(".ask-send").is_visible()
        thread = page.evaluate("location.hash")
        assert thread.startswith("#/ask?thread=ask_")

        # A follow-up keeps the conversation (the server saw the first turn as history).
        page.fill(".ask-input", "And why can it not reclaim cycles?")
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.querySelectorAll(\".ask-exchange[data-state='done']\").length === 2")
        page.wait_for_function("() => document.querySelector('.ask-history-link')?.textContent.includes('2 questions')")
        assert page.locator(".ask-history-link").count() == 1
        assert page.locator(".ask-history-title").inner_text() == "How does mark and sweep work?"
        both_themes(window, "ask-02-answered-with-citations", ".ask-exchange[data-state='done'] .cite-chip")

        # The chip opens the reader at the cited second.
        href = page.locator(".ask-exchange").first.locator(".cite-chip").first.get_attribute("href")
        assert href.startswith("#/sources/transcript_") and href.endswith("?t=754")

        # The history survives a reload; opening it brings back the answers and their chips.
        page.goto(f"{server.url}/#/ask")
        page.reload()
        page.wait_for_selector(".ask-history-link")
        page.click(".ask-history-link")
        page.wait_for_function("() => document.querySelectorAll('.ask-exchange').length === 2")
        assert page.locator(".ask-exchange").first.locator(".cite-chip").count() == 2
        page.wait_for_selector(".ask-history-link[aria-current='page']")
        both_themes(window, "ask-03-history", ".ask-history-link[aria-current='page']")
        page.click(".ask-new")
        page.wait_for_selector(".ask-empty:not([hidden])")
        assert page.evaluate("location.hash") == "#/ask"
    finally:
        gate.set()
        server.stop()


def test_ask_with_no_model_shows_passages_not_an_answer(window, tmp_path):
    course = write_course(tmp_path / "Course")
    server = start_server(tmp_path / "data", None, prepare=fast_search)  # no script, no key
    try:
        import_course(server, course)
        page = window.page
        page.set_viewport_size(SIZE)
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        page.goto(f"{server.url}/#/ask")
        page.wait_for_selector(".ask-hint:not([hidden])")
        page.fill(".ask-input", "What does the sweep phase free?")
        page.keyboard.press("Enter")
        page.wait_for_selector(".ask-exchange[data-state='no-model']")
        note = page.locator(".ask-no-model")
        assert "Not an answer" in note.inner_text()
        assert note.locator("a[href='#/settings']").count() == 1
        assert page.locator(".ask-answer").count() == 0  # nothing pretends to be an answer
        first = page.locator(".ask-passage").first
        assert "12:34" in first.inner_text() and "sweep" in first.inner_text()
        # Near passages were matched, not read: the case says so instead of "not there".
        case = page.locator(".ask-case").inner_text()
        assert "Can't tell without a model" in case and "Not in your material" not in case
        # The sentence nearest the question is marked where to read first.
        assert first.locator("mark.passage-closest").inner_text().startswith("The sweep phase")
        both_themes(window, "ask-04-no-model", ".ask-no-model")
        first.locator("a").click()
        page.wait_for_function("() => location.hash.startsWith('#/sources/transcript_') && location.hash.endsWith('?t=754')")

        # Far from every passage it may say the material lacks it, and after a reload still.
        # Each exchange is found by its question: the one on screen before may still show.
        def case_of(question: str) -> str:
            exchange = page.locator(".ask-exchange[data-state='no-model']").filter(
                has=page.locator(".ask-q-text", has_text=question))
            exchange.locator(".ask-case").wait_for()
            return exchange.locator(".ask-case").inner_text()

        page.goto(f"{server.url}/#/ask")
        page.click(".ask-new")
        page.wait_for_selector(".ask-empty:not([hidden])")
        page.fill(".ask-input", "What is the capital of Peru?")
        page.keyboard.press("Enter")
        assert "Not in your material" in case_of("What is the capital of Peru?")
        both_themes(window, "ask-06-no-model-far", ".ask-no-model")
        page.reload()
        page.click(".ask-history-link >> text=What does the sweep phase free?")
        assert "Can't tell without a model" in case_of("What does the sweep phase free?")
    finally:
        server.stop()


def test_slash_in_the_empty_question_box_types_nothing_but_a_question_keeps_its_slashes(window, tmp_path):
    server = start_server(tmp_path / "data", None)
    try:
        page = window.page
        page.set_viewport_size(SIZE)
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        page.goto(f"{server.url}/#/ask")
        page.wait_for_selector(".ask-input")
        page.focus(".ask-input")
        page.keyboard.press("/")  # "/" leads here: arriving, it types nothing
        assert page.input_value(".ask-input") == ""
        page.keyboard.type("How does TCP/IP differ?")
        assert page.input_value(".ask-input") == "How does TCP/IP differ?"
    finally:
        server.stop()
