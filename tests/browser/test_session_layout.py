"""A session at 1024×700: the question dock leaves the lesson most of the column (at most 45 %,
a long question and long options too), its way on ("See the plan") stays in view, and a code
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


def open_session_on_heaps(page, server) -> None:
    """A new session at 1024×700, once its first question is in the dock and the turn is over."""
    page.set_viewport_size({"width": 1024, "height": 700})
    page.goto(server.launch_url)
    page.wait_for_selector("body[data-ready='1']")
    page.keyboard.press("n")
    page.fill("#new-topic", "heaps")
    page.keyboard.press("Enter")
    page.wait_for_selector(".question-dock .choice", timeout=30_000)
    page.wait_for_selector("body[data-turn='idle']")


def test_the_dock_leaves_the_lesson_room_and_code_scrolls_and_takes_focus(window, tmp_path):
    server = start_server(tmp_path / "data", SCRIPT)
    try:
        page = window.page
        open_session_on_heaps(page, server)
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


LONG = ("When a binary heap stored in an array grows past its capacity and every parent must "
        "stay no larger than its children, which of these statements about the next insertion "
        "holds in every case, whatever the order the earlier items arrived in?")
LONG_QUIZ = {"questions": [{
    "prompt": LONG,
    "choices": [f"Choice {c}: the new item is placed at the end of the array and sifted up one "
                "level at a time, comparing it with its parent until the order holds again"
                for c in "ABCDE"],
    "correct": [0], "explanation": " ".join(["Sift-up walks at most one path to the root."] * 8)}]}
PLAN_AFTER = {
    "prober": [
        {"text": "One long question:", "tool_calls": [{"name": "quiz", "id": "long_q", "arguments": LONG_QUIZ}]},
        {"text": "Thanks.", "tool_calls": [{"name": "probe_done", "id": "fin", "arguments": {
            "floor": "arrays", "ceiling": "heapsort", "goal": "exam", "summary": "Ready."}}]},
    ],
    "teacher": [{"text": "Here is our plan.", "tool_calls": [{"name": "plan_init", "id": "plan", "arguments": {
        "title": "Heaps", "mermaid": "graph TD\n  A[Array layout] --> B[Sift up]\n  B --> C[Heapsort]"}}]}],
    "labeler": [{"text": "Heaps"}],
}


def test_a_long_question_keeps_see_the_plan_in_view(window, tmp_path):
    server = start_server(tmp_path / "data", PLAN_AFTER)
    try:
        page = window.page
        open_session_on_heaps(page, server)
        column = page.locator(".session").bounding_box()
        dock = page.locator(".question-dock").bounding_box()
        assert column and dock and dock["height"] <= 0.45 * column["height"], (dock, column)
        page.locator(".question-dock .choice").first.click()
        page.get_by_role("button", name="Check answer").click()
        page.wait_for_selector(".question-dock .result-view")
        page.wait_for_selector("body[data-turn='idle']")
        see = page.locator(".result-view button.primary")
        assert see.inner_text() == "See the plan"
        dock = page.locator(".question-dock").bounding_box()
        box = see.bounding_box()
        assert dock and box and dock["height"] <= 0.45 * column["height"]
        assert box["y"] >= 0 and box["y"] + box["height"] <= 700, "See the plan is below the fold"
        assert box["y"] + box["height"] <= dock["y"] + dock["height"] + 1
        both_themes(window, "session-layout-see-the-plan", ".result-view")
        see.click()
        page.wait_for_selector(".question-dock [aria-label='Plan approval']")
        approve = page.get_by_role("button", name="Approve plan").bounding_box()
        assert approve and approve["y"] + approve["height"] <= 700
    finally:
        server.stop()
