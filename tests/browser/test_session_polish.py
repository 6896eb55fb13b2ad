"""Session polish at 1024×700, light and dark: a rejected quiz never shows, a three-question
quiz goes one question at a time with Markdown choices and nothing pre-picked, the plan shows
once while it waits for approval and the dock updates the moment it is approved, Settings puts
the key first, and a session with no key says "Add a key" at once."""

from __future__ import annotations

import os
import re
import time

import pytest

from tests.support.graph_lesson import PLAN_V2, PROBE_ARGS
from tests.support.live_server import start_server

pytestmark = pytest.mark.browser

DUPLICATE = {"questions": [{"prompt": "Capital of France?", "choices": ["Paris", "paris"],
                            "correct": [0]}]}
THREE = {"questions": [
    {"prompt": "Which link points into the `Projects` folder?",
     "choices": ["`[[Projects/Plan]]`", "`[[Projects\\Plan]]`", "`[Plan](Plan.md)`"], "correct": [0],
     "explanation": "Obsidian paths use a forward slash."},
    {"prompt": "Cost of scanning a list once?", "choices": ["`O(n)`", "`O(n²)`", "`O(1)`"],
     "correct": [0]},
    {"prompt": "Which is below zero?", "choices": ["-5", "5"], "correct": [0]},
]}
SCRIPT = {
    "prober": [
        {"text": "Three quick ones:", "tool_calls": [
            {"name": "quiz", "id": "dup", "arguments": DUPLICATE},
            {"name": "quiz", "id": "three", "arguments": THREE}]},
        {"text": "Thanks.", "tool_calls": [
            {"name": "probe_done", "id": "probe_fin", "arguments": PROBE_ARGS}]},
    ],
    "teacher": [
        {"text": "Here is our plan.", "tool_calls": [
            {"name": "plan_init", "id": "plan", "arguments": PLAN_V2}]},
        {"text": "A graph is a set of vertices joined by edges."},
    ],
    "labeler": [{"text": "Links"}],
}
THEMES = pytest.mark.parametrize("window", ["light", "dark"], indirect=True)


def small(window) -> None:
    window.page.set_viewport_size({"width": 1024, "height": 700})


@THEMES
def test_quiz_dock_and_plan_approval_at_1024(window, tmp_path, request):
    theme = request.node.callspec.params["window"]
    server = start_server(tmp_path / "data", SCRIPT)
    try:
        page = window.page
        small(window)
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        page.keyboard.press("n")
        page.fill("#new-topic", "Obsidian links")
        page.keyboard.press("Enter")
        page.wait_for_selector(".question-dock fieldset.question", timeout=90_000)  # litellm import under load
        page.wait_for_selector("body[data-turn='idle']")
        # The rejected quiz left nothing: one waiting card, no "Not answered." ghost.
        assert page.locator(".quiz-card").count() == 1
        assert "Not answered" not in page.locator(".transcript").inner_text()
        # One question at a time; choices are Markdown; nothing looks picked.
        assert page.locator(".question-dock fieldset.question:visible").count() == 1
        assert "Question 1 of 3" in page.locator(".quiz-steps").inner_text()
        assert page.locator(".question-dock .choice-text code").count() >= 3
        assert "`" not in page.locator(".question-dock").inner_text()
        assert page.locator(".choice[aria-checked='true']").count() == 0
        assert page.evaluate("!document.activeElement.classList.contains('choice')")
        dock = page.locator(".question-dock").bounding_box()
        assert dock and dock["y"] + dock["height"] <= 700
        gap = page.evaluate("document.querySelector('.question-dock').getBoundingClientRect().top"
                            " - document.querySelector('.session-bottom').getBoundingClientRect().top")
        assert gap < 16, f"{gap}px of empty space above the dock"
        # Nor a band of empty transcript between the last card and the dock.
        band = page.evaluate("""() => {
            const s = document.querySelector('.session-scroll');
            s.scrollTop = s.scrollHeight;
            const last = document.querySelector('.transcript > :last-child > :last-child');
            return document.querySelector('.question-dock').getBoundingClientRect().top
                - last.getBoundingClientRect().bottom; }""")
        assert band < 16, f"{band}px of empty transcript above the dock"
        # The composer's hint fits on its one line at 1024 px.
        room = page.evaluate("""() => {
            const box = document.querySelector('.composer-input'), cs = getComputedStyle(box);
            const ctx = document.createElement('canvas').getContext('2d');
            ctx.font = `${cs.fontSize} ${cs.fontFamily}`;
            return box.clientWidth - ctx.measureText(box.placeholder).width; }""")
        assert room > 0, f"the composer's placeholder overflows by {-room}px"
        window.shot(f"polish-quiz-dock-3q-{theme}")

        for key in ("1", "1", "1"):
            page.keyboard.press(key)
            page.wait_for_timeout(350)
        page.keyboard.press("Enter")
        page.wait_for_selector(".question-dock .result-view")
        result = page.locator(".question-dock .result-view")
        assert "You answered:" in result.inner_text()
        assert result.locator(".result-answer code").count() >= 1
        assert "`" not in result.inner_text()
        page.wait_for_selector("body[data-turn='idle']")
        page.keyboard.press("Enter")  # Continue -> the plan waits behind the verdict

        page.wait_for_selector(".question-dock .plan-steps")
        page.wait_for_selector("body[data-turn='idle']")
        # The plan's steps show once: in the dock, not in the transcript card or the plan panel.
        assert page.locator(".plan-steps:visible, .plan-tree:visible").count() == 1
        window.shot(f"polish-plan-approval-{theme}")
        page.get_by_role("button", name="Approve plan").click()
        # At once, before the teacher's reply is in: the dock, the phase bar and the hint.
        page.wait_for_selector(".phases li[aria-current='step']:has-text('Learn')", timeout=1000)
        assert page.locator(".question-dock").is_hidden()
        assert page.locator(".composer-input").get_attribute("placeholder") == "Write to the teacher…"
        page.wait_for_selector("body[data-turn='idle']")
        assert page.locator(".plan-tree").count() == 1
    finally:
        server.stop()


@THEMES
def test_settings_and_a_session_without_a_key(window, tmp_path, request, monkeypatch):
    theme = request.node.callspec.params["window"]
    for name in [k for k in os.environ if k.endswith("_API_KEY")]:
        monkeypatch.delenv(name)
    server = start_server(tmp_path / "data")
    try:
        page = window.page
        small(window)
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        # Welcome: with no key, starting leads to adding one.
        page.get_by_role("button", name="Add a key").click()
        page.wait_for_selector("#key-provider")
        sections = page.locator(".settings > section.settings-section h2, .settings > details > summary")
        titles = sections.all_inner_texts()
        assert titles[0] == "API keys" and titles[1] == "Test connection", titles
        assert page.locator("details.settings-advanced").get_attribute("open") is None
        # The keys the models lack, by the providers' names and what to do (not "anthropic, openai").
        needed = page.locator("section.settings-section p.note", has_text="need a key").inner_text()
        assert re.search(r"need a key for [A-Z]\w*( and [A-Z]\w*)?: choose one provider", needed), needed
        window.shot(f"polish-settings-{theme}")
        page.locator("details.settings-advanced > summary").click()
        model = page.locator("input[name='model-teacher']")
        assert model.evaluate("el => el.scrollWidth <= el.clientWidth"), "the model id is cut off"

        # "n" (and every other start) goes to Settings first too.
        page.goto(server.launch_url.split("#")[0] + "#/")
        page.wait_for_selector("body[data-ready='1']")
        page.keyboard.press("n")
        page.wait_for_selector("#key-provider")
        assert page.locator("#new-topic").count() == 0

        # A session started anyway (another window, the API) fails at once with "Add a key".
        made = page.request.post(f"{server.url}/api/chats", data={"topic": "graphs"},
                                 headers={"Authorization": f"Bearer {server.token}"})
        assert made.ok, made.text()
        chat_id = made.json()["id"]
        started = time.monotonic()
        page.goto(server.launch_url.split("#")[0] + f"#/session/{chat_id}?start=1")
        page.wait_for_selector(".inline-error")
        assert time.monotonic() - started < 5
        error = page.locator(".inline-error")
        assert error.inner_text().startswith("Add a key")
        assert error.get_by_role("button", name="Open settings").count() == 1
        # The dock's "Add to graph" could only fail: it is held, and the line says why.
        page.wait_for_selector(".add-to-graph:disabled")
        assert "Add a key" in page.locator(".session-dock .coverage").inner_text()
        window.shot(f"polish-no-key-start-{theme}")
    finally:
        server.stop()

