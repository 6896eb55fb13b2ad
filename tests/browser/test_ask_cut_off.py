"""An Ask answer the app died in the middle of, re-opened in the window: the question, the words
the learner had read and the passages, then a calm line — "The answer was cut off. Ask again to
get the rest." — whose "Ask again" asks it again in the same conversation. The record is the one
a kill -9 leaves (a real answer, rewritten as its mid-stream checkpoint). Screenshots at
1024×700, light and dark."""

from __future__ import annotations

import json

import httpx
import pytest
from studyhall.adapters.store import JsonAskStore
from studyhall.core.contracts.asks import CUT_OFF

from tests.support.ask_window import fast_search, import_course, write_course
from tests.support.live_server import start_server
from tests.support.session_api import parse_sse
from tests.support.themes import both_themes

pytestmark = pytest.mark.browser

SIZE = {"width": 1024, "height": 700}
THREAD = "ask_0123456789abcdef"
GRADES = {"json": {"grades": [{"n": 1, "grade": "answers"}, {"n": 2, "grade": "related"}]}}
ANSWER = ("Mark and sweep works in two phases. First it **marks** every object reachable from the "
          "roots [1]; then the sweep phase frees every unmarked object and returns its memory [1].")
SCRIPT = {"reranker": [GRADES, GRADES], "rewriter": [{"text": "How does mark and sweep work?"}],
          "answerer": [{"text": ANSWER}, {"text": "Then the sweep phase frees every unmarked object [1]."}]}
QUESTION = "How does mark and sweep work?"


def crash_mid_answer(server) -> None:  # type: ignore[no-untyped-def]
    """Ask once for real, then leave the exchange as the checkpoint a kill -9 would have left
    after the first words: incomplete, cut off, the passages kept."""
    headers = {"Authorization": f"Bearer {server.token}"}
    with httpx.Client(base_url=server.url, headers=headers, timeout=30) as http:
        r = http.post("/api/ask", json={"question": QUESTION, "thread_id": THREAD})
        assert parse_sse(r.text)[-1][0] == "finish"
    store = JsonAskStore(server.data_dir / "asks")
    thread = store.get(THREAD)
    assert thread is not None
    (done,) = thread.exchanges
    cut = done.model_copy(update={"answer": ANSWER[:ANSWER.index("; then")] + "; then the sw",
                                  "answered": False, "complete": False, "cut_off": True,
                                  "reason": CUT_OFF})
    store.put_exchange(THREAD, cut, thread.updated_at)


def test_an_answer_cut_off_by_a_crash_reads_calmly_and_can_be_asked_again(window, tmp_path):
    course = write_course(tmp_path / "Course")
    server = start_server(tmp_path / "data", SCRIPT, prepare=fast_search)
    try:
        import_course(server, course)
        crash_mid_answer(server)
        page = window.page
        page.set_viewport_size(SIZE)
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        page.goto(f"{server.url}/#/ask?thread={THREAD}")
        page.wait_for_selector(".ask-exchange[data-state='cut-off']")

        exchange = page.locator(".ask-exchange").first
        assert exchange.locator(".ask-q-text").inner_text() == QUESTION
        assert exchange.locator(".ask-answer").inner_text().endswith("then the sw")
        assert exchange.locator(".ask-answer .cite-chip").count() == 1  # the words read, cited
        assert exchange.locator(".ask-passage").count() >= 1
        line = exchange.locator(".ask-cut-off")
        assert line.inner_text().replace("\n", "") == "⋯The answer was cut off. Ask again to get the rest."
        assert exchange.locator(".inline-error, .ask-no-model, .ask-stopped").count() == 0  # calm
        assert page.locator(".ask-history-link[aria-current='page'] .ask-history-title").inner_text() == QUESTION
        line.scroll_into_view_if_needed()
        both_themes(window, "ask-05-cut-off", ".ask-cut-off")

        # "Ask again" asks the same question in the same conversation; the cut answer stays.
        line.locator("button.ask-again").click()
        page.wait_for_function("() => document.querySelectorAll(\".ask-exchange[data-state='done']\").length === 1")
        assert page.locator(".ask-exchange").count() == 2
        assert page.locator(".ask-exchange").nth(1).locator(".ask-q-text").inner_text() == QUESTION
        assert page.locator(".ask-exchange").first.get_attribute("data-state") == "cut-off"
        page.wait_for_function("() => document.querySelector('.ask-history-link')?.textContent.includes('2 questions')")
        kept = JsonAskStore(server.data_dir / "asks").get(THREAD)
        assert [(x.complete, x.cut_off) for x in kept.exchanges] == [(False, True), (True, False)]
    finally:
        server.stop()


def test_an_answer_whose_stream_breaks_off_live_shows_the_same_line(window, tmp_path):
    """The app goes away mid-answer while the window watches: the stream ends with no finish,
    and the exchange keeps the words shown with the cut-off line (not a session's "reload")."""
    server = start_server(tmp_path / "data", SCRIPT, prepare=fast_search)
    try:
        page = window.page
        page.set_viewport_size(SIZE)
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        sources = {"case": "MATCH", "sources": [], "graded": True, "rewritten": None, "notices": []}
        broken = (f"event: sources\ndata: {json.dumps(sources)}\n\n"
                  'event: text-delta\ndata: {"text": "Mark and sweep works in two"}\n\n')
        page.route("**/api/ask", lambda route: route.fulfill(
            status=200, content_type="text/event-stream", body=broken))
        page.goto(f"{server.url}/#/ask")
        page.fill(".ask-input", QUESTION)
        page.keyboard.press("Enter")
        page.wait_for_selector(".ask-exchange[data-state='cut-off']")
        assert page.locator(".ask-answer").inner_text() == "Mark and sweep works in two"
        assert "The answer was cut off." in page.locator(".ask-cut-off").inner_text()
        assert page.locator(".inline-error").count() == 0
        assert page.locator(".ask-send").is_visible()  # ready to ask again
    finally:
        server.stop()
