"""Issue 31 in the window, at 1024×700 light and dark: a small model that prints its tool
calls still puts a quiz in front of the learner in the prober's first turn (no printed call in
the transcript), and a teacher that loops a line and cannot produce a valid plan ends its turn
with the line once and one calm sentence."""

from __future__ import annotations

import json

import pytest
from studyhall.core.agents.action_step import calm_line

from tests.support.live_server import start_server
from tests.support.small_model import open_new_session, printed_prober

pytestmark = pytest.mark.browser

LOOP = "BFS takes the nearest nodes first, then the next ring."
BROKEN_PLAN = {"title": "BFS", "mermaid": "graph TD\n  A[Queues] -->"}
SCRIPT = {
    "prober": printed_prober(),
    "teacher": [
        {"text": "<tool_call>" + json.dumps({"name": "plan_init", "arguments": BROKEN_PLAN})
                 + "</tool_call>"},
        {"text": "plan: queues then BFS"}, {"text": '{"say": 3}'}, {"text": "[]"},
        {"text": "Let's start with the queue.\n" + (LOOP + "\n") * 100},
    ],
    "labeler": [{"text": "BFS"}],
}
THEMES = pytest.mark.parametrize("window", ["light", "dark"], indirect=True)


@THEMES
def test_a_small_models_printed_quiz_and_calm_fallback_in_the_window(window, tmp_path, request):
    theme = request.node.callspec.params["window"]
    server = start_server(tmp_path / "data", SCRIPT)
    try:
        page = window.page
        open_new_session(page, server.launch_url, "Quiz me on BFS, please.")
        page.wait_for_selector(".question-dock fieldset.question", timeout=90_000)
        page.wait_for_selector("body[data-turn='idle']")
        transcript = page.locator(".transcript").inner_text()
        assert "A quick check first." in transcript
        assert "tool_call" not in transcript and "arguments" not in transcript
        assert "Which structure does BFS keep" in page.locator(".question-dock").inner_text()
        window.shot(f"small-model-printed-quiz-{theme}")

        page.keyboard.press("1")
        page.wait_for_timeout(350)
        page.keyboard.press("Enter")
        page.wait_for_selector(".question-dock .result-view")
        page.wait_for_selector("body[data-turn='idle']", timeout=60_000)
        page.wait_for_function(
            "text => document.querySelector('.transcript').innerText.includes(text)",
            arg=calm_line("plan_init"), timeout=60_000)
        page.keyboard.press("Enter")  # Continue: the verdict leaves the dock
        page.wait_for_selector("body[data-turn='idle']")
        transcript = page.locator(".transcript").inner_text()
        assert transcript.count(LOOP) == 1
        assert "set the plan up on screen" in transcript
        assert "tool_call" not in transcript and "mermaid" not in transcript
        assert "plan: queues then BFS" not in transcript  # a failed JSON answer never shows
        page.evaluate("document.querySelector('.session-scroll').scrollTop = 1e9")
        window.shot(f"small-model-calm-fallback-{theme}")
        assert not window.page_errors
    finally:
        server.stop()
