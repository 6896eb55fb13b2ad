"""Code at 1024×700 in the reader and in Ask: a long line scrolls sideways inside its block
(never clipped, never widening the column) and the block takes keyboard focus, so arrows
scroll it (axe: ``scrollable-region-focusable``); an index like ``x[2]`` in an answer's code is
code, not a citation to check. Screenshots light and dark."""

from __future__ import annotations

import pytest

from tests.support.ask_window import fast_search, import_course, write_course
from tests.support.browser_shelf import imported
from tests.support.live_server import start_server
from tests.support.themes import both_themes

pytestmark = pytest.mark.browser

LONG_LINE = "total = " + " + ".join(f"generation[{i}].survivors()" for i in range(30))
GRADES = {"json": {"grades": [{"n": 1, "grade": "answers"}, {"n": 2, "grade": "related"}]}}
SCRIPT = {
    "reranker": [GRADES],
    "answerer": [{"text": f"Count what survives each generation [1]:\n\n```python\n{LONG_LINE}\n```"}],
}


def scrolls_inside(page, selector: str, column: str) -> None:
    code = page.locator(selector).first
    assert code.get_attribute("tabindex") == "0"
    fits = page.evaluate("""([el, col]) => {
        const box = el.getBoundingClientRect(), outer = document.querySelector(col).getBoundingClientRect();
        return el.scrollWidth > el.clientWidth && getComputedStyle(el).overflowX === 'auto'
            && box.right <= outer.right + 1; }""", [code.element_handle(), column])
    assert fits, f"the long line in {selector} is clipped or widens {column}"
    code.focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("(el) => el.scrollLeft > 0", arg=code.element_handle())


def test_long_code_lines_scroll_in_the_reader_and_in_ask(window, tmp_path):
    course = write_course(tmp_path / "Course")
    (course / "Counting.md").write_text(f"# Counting\n\n```python\n{LONG_LINE}\n```\n")
    server = start_server(tmp_path / "data", SCRIPT, prepare=fast_search)
    try:
        import_course(server, course)
        note = imported(server, course)["Counting.md"]["id"]  # unchanged: the same ids
        page = window.page
        page.set_viewport_size({"width": 1024, "height": 700})
        page.goto(f"{server.launch_url}#/sources/{note}")
        page.wait_for_selector("body[data-reader='note'] pre.code")
        scrolls_inside(page, ".reader-prose pre.code", ".reader-scroll")
        both_themes(window, "code-scroll-reader", ".reader-prose pre.code")

        page.goto(f"{server.url}/#/ask")
        page.wait_for_selector("body[data-view='ask'] .ask-input")
        page.fill(".ask-input", "How do I count the survivors of each generation?")
        page.keyboard.press("Enter")
        page.wait_for_selector(".ask-exchange[data-state='done'] .ask-answer pre.code", timeout=60_000)
        assert page.locator(".ask-answer pre.code").inner_text().strip() == LONG_LINE  # x[2] is code
        scrolls_inside(page, ".ask-answer pre.code", ".ask-exchange")
        both_themes(window, "code-scroll-ask", ".ask-answer pre.code")
    finally:
        server.stop()
