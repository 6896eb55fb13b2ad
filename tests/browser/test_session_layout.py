"""A session at 1024×700: the question dock leaves the lesson most of the column, and a code
block in the lesson scrolls sideways and can be reached with the keyboard (axe:
``scrollable-region-focusable``), light and dark."""

from __future__ import annotations

import pytest

from tests.support.live_server import start_server
from tests.support.themes import both_themes

pytestmark = pytest.mark.browser

LONG_LINE = "result = " + " + ".join(f"weights[{i}] * inputs[{i}]" for i in range(40))
QUIZ = {"questions": [
    {"prompt": f"Question {n}: which of these is a heap property?",
     "choices": ["the root is the largest", "every level is sorted", "leaves are at one depth",
                 "the tree is balanced by rotations"], "correct": [0],
     "explanation": "Only the root's place is fixed."} for n in range(1, 4)]}
SCRIPT = {
    "prober": [
        {"text": f"Here is the loop we start from:\n\n```python\n{LONG_LINE}\n```\n\n"
                 "Three quick questions:",
         "tool_calls": [{"name": "quiz", "id": "heaps", "arguments": QUIZ}]},
    ],
    "labeler": [{"text": "Heaps"}],
}


def test_the_dock_leaves_the_lesson_room_and_code_scrolls_and_takes_focus(window, tmp_path):
    server = start_server(tmp_path / "data", SCRIPT)
    try:
        page = window.page
        page.set_viewport_size({"width": 1024, "height": 700})
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        page.keyboard.press("n")
        page.fill("#new-topic", "heaps")
        page.keyboard.press("Enter")
        page.wait_for_selector("body[data-turn='idle']", timeout=30_000)
        page.wait_for_selector(".question-dock .choice")
        page.wait_for_selector("body[data-turn='idle']")
        dock = page.locator(".question-dock").bounding_box()
        assert dock is not None and dock["height"] <= 0.45 * 700
        # Capped, its way on stays in view: the check button is inside the dock's box.
        check = page.locator(".question-dock .dock-foot button.primary").bounding_box()
        assert check is not None and check["y"] + check["height"] <= dock["y"] + dock["height"] + 1
        code = page.locator(".transcript pre.code").first
        assert code.get_attribute("tabindex") == "0"
        scrolls = page.evaluate("(el) => el.scrollWidth > el.clientWidth && "
                                "getComputedStyle(el).overflowX === 'auto'", code.element_handle())
        assert scrolls, "the long line is cut off instead of scrolling"
        code.focus()
        for _ in range(5):
            page.keyboard.press("ArrowRight")  # a focused code block scrolls from the keyboard
        page.wait_for_function("(el) => el.scrollLeft > 0", arg=code.element_handle())
        both_themes(window, "session-layout-1024", ".question-dock")
    finally:
        server.stop()
