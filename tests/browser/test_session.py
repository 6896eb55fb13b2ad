"""A whole session in the real window: probe quiz → plan approval → teaching → tagged quiz,
and a reload in the middle of a question that is then answered. Real server, scripted models."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.graph_lesson import SCRIPT
from tests.support.live_server import LiveServer, start_server

pytestmark = pytest.mark.browser


@pytest.fixture
def server(tmp_path) -> Iterator[LiveServer]:
    live = start_server(tmp_path / "data", SCRIPT)
    yield live
    live.stop()


def open_app(window, server: LiveServer) -> None:
    window.page.goto(server.launch_url)
    window.page.wait_for_selector("body[data-ready='1']")


def settle(page) -> None:
    """Wait until no turn streams and the transcript was reloaded from the record."""
    page.wait_for_selector("body[data-turn='idle']")


def choice(page, text: str):
    return page.locator(".question-dock .choice", has_text=text)


def test_full_session_probe_plan_teach_quiz(window, server):
    page = window.page
    open_app(window, server)
    window.shot("01-welcome")
    assert page.locator(".welcome h1").inner_text() == "Studyhall"
    assert page.get_by_role("button", name="Import notes").first.is_visible()

    # New session with "n": the topic becomes the first message; the prober greets.
    page.keyboard.press("n")
    page.fill("#new-topic", "graph theory")
    window.shot("02-new-session")
    page.keyboard.press("Enter")
    page.wait_for_selector(".msg-assistant .prose")
    settle(page)
    assert "quick questions" in page.locator(".msg-assistant").first.inner_text()
    assert page.locator(".session-link").count() == 1

    # The prober's quiz arrives in the dock, choices as the server shuffled them.
    page.fill(".composer-input", "Ready")
    page.keyboard.press("Enter")
    page.wait_for_selector(".question-dock .choice")
    settle(page)
    shown = page.locator(".question-dock .choice-text").all_inner_texts()
    assert sorted(shown) == ["10", "4", "5"]
    window.shot("03-probe-quiz")
    # Keyboard: the number of the right choice, then Enter.
    page.keyboard.press(str(shown.index("4") + 1))
    assert choice(page, "4").get_attribute("aria-checked") == "true"
    page.keyboard.press("Enter")
    # Instant verdict and explanation in the dock, while the teacher takes over.
    page.wait_for_selector(".question-dock .result-view")
    assert "Correct" in page.locator(".question-dock .result-view").inner_text()
    settle(page)
    assert page.locator(".divider", has_text="teacher takes over").count() == 1
    assert page.locator(".assessment-card").count() == 1

    # The verdict stays until read; the plan waits behind it.
    assert page.locator(".result-view button.primary").inner_text() == "See the plan"
    # Plan approval: ask for a change first, then approve the revised plan.
    page.keyboard.press("Enter")  # leave the verdict
    page.wait_for_selector(".question-dock [aria-label='Plan approval']")
    assert page.locator(".question-dock .plan-steps li").count() == 2
    window.shot("04-plan-approval")
    page.get_by_role("button", name="Ask for changes").click()
    page.fill(".plan-changes textarea", "Please add trees")
    page.get_by_role("button", name="Send changes").click()
    settle(page)
    page.wait_for_selector(".question-dock .plan-steps li >> nth=2")
    assert "Trees" in page.locator(".question-dock .plan-steps").inner_text()
    page.get_by_role("button", name="Approve plan").click()
    settle(page)

    # Teaching, and a quiz tagged with plan node A: the plan tree shows A as current.
    page.wait_for_selector(".plan-node.status-current")
    assert page.locator(".plan-node.status-current .plan-label").inner_text() == "Vertices and edges"
    assert page.locator(".plan-node").count() == 3
    assert "vertices joined by edges" in page.locator(".transcript").inner_text()
    window.shot("05-teaching-quiz")
    choice(page, "an edge").click()
    page.get_by_role("button", name="Check answer").click()
    page.wait_for_selector(".question-dock .result-view")
    settle(page)
    assert page.locator(".transcript").inner_text().rstrip().endswith("Exactly. Next: paths.")
    # A stays current (the latest tagged quiz); the others are still to come.
    assert page.locator(".plan-node.status-current .plan-label").all_inner_texts() == ["Vertices and edges"]
    assert page.locator(".plan-node.status-upcoming").count() == 2
    window.shot("06-session-answered")
    # The transcript keeps the graded quiz as a card with its verdict.
    assert page.locator(".quiz-card .verdict-correct").count() >= 2


def test_reload_in_the_middle_of_a_question_then_answer_it(window, server):
    page = window.page
    open_app(window, server)
    page.keyboard.press("n")
    page.fill("#new-topic", "graph theory")
    page.keyboard.press("Enter")
    page.wait_for_selector(".msg-assistant .prose")
    settle(page)
    page.fill(".composer-input", "Ready")
    page.keyboard.press("Enter")
    page.wait_for_selector(".question-dock .choice")
    settle(page)
    before = page.locator(".question-dock .choice-text").all_inner_texts()

    page.set_viewport_size({"width": 1024, "height": 700})  # the smallest window it supports
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector(".question-dock .choice")
    # The same question, in the same order, from the record.
    assert page.locator(".question-dock .choice-text").all_inner_texts() == before
    window.shot("07-after-reload")
    page.keyboard.press("?")  # "I don't know"
    assert page.locator(".question-dock .dont-know").get_attribute("aria-pressed") == "true"
    page.keyboard.press("Enter")
    page.wait_for_selector(".question-dock .result-view")
    assert "didn't know" in page.locator(".question-dock .result-view").inner_text()
    settle(page)
    record = server.services.chat_store.get(page.url.rsplit("/", 1)[1])
    quiz = next(p for m in record.messages for p in m.parts
                if getattr(p, "name", "") == "quiz")
    assert quiz.state == "output-available" and quiz.output["dont_know"] is True
