"""Goals in the real window, 1024×700, light and dark: set a goal with its steps on its own screen
(#/goals, in the sidebar), see which step is solid and which comes next, find it in Today ("Your
goal") and in Stats ("Your goals"), hostile goal text shown as text, delete it; with a model,
"Start a session" opens a session whose teacher was told about the goal."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

import pytest
from studyhall.core.contracts.graph import QuizEvent

from tests.support.embedder import HashEmbedder
from tests.support.live_server import start_server
from tests.support.themes import both_themes
from tests.support.today_history import seed_learning, seed_notes

pytestmark = pytest.mark.browser

SIZE = {"width": 1024, "height": 700}
GOAL = "Learn graph algorithms by March"
STEPS = "Graph basics\nShortest paths\nMinimum spanning trees"


def prepare_with(now):
    def prepare(services):
        seed_notes(services, now)
        seed_learning(services, now)
        services.graph_store.append_quiz_events([QuizEvent(  # basics: solid, not just known
            id=f"quz_more_{n}", node_id="basics", verdict="correct", source_id="chat_graph_search",
            tool_call_id=f"call_more_{n}", question_index=0, run_id="r_chat",
            at=now - timedelta(days=2, minutes=n)) for n in range(3)])
        return replace(services, embedder=HashEmbedder())
    return prepare


def launch(page, server, route: str) -> None:
    page.set_viewport_size(SIZE)
    page.goto(server.launch_url)
    page.wait_for_selector("body[data-ready='1']")
    page.goto(f"{server.url}/{route}")


def set_goal(page, target: str | None = None) -> None:
    """Fill in the form with the goal and its steps, and save it."""
    page.fill("#goal-text", GOAL)
    if target:
        page.fill("#goal-target", target)
    page.locator(".goal-steps summary").click()
    page.fill("#goal-steps", STEPS)
    page.locator(".goal-form button[type='submit']").click()
    page.wait_for_selector("body[data-goals='listed']")


def test_a_goal_is_set_seen_in_today_and_stats_and_deleted(window, tmp_path):
    server = start_server(tmp_path / "data", None,
                          prepare=prepare_with(datetime.now().astimezone()))
    try:
        page = window.page
        launch(page, server, "#/goals")
        page.wait_for_selector("body[data-goals='empty']")
        assert page.locator("nav.sidebar a.goals-link").get_attribute("aria-current") == "page"
        both_themes(window, "goals-empty")
        set_goal(page, "2027-03-01")
        card = page.locator(".goal-card")
        assert card.locator(".goal-title").inner_text() == GOAL
        assert "By March 1, 2027 · no session yet" == card.locator(".goal-meta").inner_text()
        assert card.locator(".goal-next").inner_text() == (
            "1 of 3 steps solid. Next: step 2, Shortest paths.")
        statuses = card.locator(".goal-steps-list li")
        assert [statuses.nth(i).get_attribute("data-status") for i in range(3)] == [
            "solid", "next", "open"]
        both_themes(window, "goals-list")

        page.goto(f"{server.url}/#/today")
        page.wait_for_selector("body[data-today='busy']")
        step = page.locator(".today-step[data-kind='goal']")
        assert f"Continue your goal “{GOAL}”" in step.inner_text()
        assert "Resume at step 2 of 3: Shortest paths (1 of 3 steps solid)." in step.inner_text()
        assert step.locator("button").inner_text() == "See the goal"  # no key: no session
        assert page.locator(".today-goals").inner_text() == "All your goals — how far each has come."
        step.scroll_into_view_if_needed()
        both_themes(window, "today-goal")
        step.locator("button").click()
        page.wait_for_selector(".goal-card.focused")

        page.goto(f"{server.url}/#/stats")
        page.wait_for_selector("body[data-stats='ready']")
        summary = page.locator(".goals-summary")
        summary.locator("a", has_text=GOAL).wait_for()
        assert "1 of 3 steps solid" in summary.inner_text()
        assert "Next: Shortest paths" in summary.inner_text()
        summary.scroll_into_view_if_needed()
        both_themes(window, "stats-goal")
        summary.locator("a", has_text=GOAL).click()
        page.wait_for_selector(".goal-card.focused")

        # Hostile words stay words: no element is made of them.
        hostile = "<img src=x onerror=alert(1)> **bold** [[link]]"
        page.evaluate("async (text) => fetch('/api/goals', {method: 'POST', headers: "
                      "{'content-type': 'application/json'}, body: JSON.stringify({text})})",
                      hostile)
        page.goto(f"{server.url}/#/goals?goal=none")
        page.wait_for_function("() => document.querySelectorAll('.goal-card').length === 2")
        assert page.locator(".goal-title").first.inner_text() == hostile
        assert page.locator(".goal-list img, .goal-list strong").count() == 0

        page.once("dialog", lambda d: d.accept())
        page.locator(".goal-card").first.locator("button", has_text="Delete").click()
        page.wait_for_function("() => document.querySelectorAll('.goal-card').length === 1")
        assert page.locator(".goal-title").inner_text() == GOAL
    finally:
        server.stop()


def test_with_a_model_start_a_session_on_the_goal(window, tmp_path):
    script = {"prober": [{"text": "Where did we get to with shortest paths?"}] * 2,
              "labeler": [{"text": "Graphs"}] * 5}
    server = start_server(tmp_path / "data", script,
                          prepare=prepare_with(datetime.now().astimezone()))
    try:
        page = window.page
        launch(page, server, "#/goals")
        page.wait_for_selector("body[data-goals='empty']")
        set_goal(page)
        page.locator(".goal-card button", has_text="Start a session").click()
        page.wait_for_function("() => location.hash.startsWith('#/session/')")
        page.wait_for_selector(".context-card")
        summary = page.locator(".context-card summary").first
        assert summary.text_content() == "Your goal What the teacher was told about your goal so far"
        page.get_by_text("Where did we get to with shortest paths?").wait_for()
        chat_id = page.evaluate("location.hash").split("/")[2].split("?")[0]
        chat = page.evaluate(f"async () => (await fetch('/api/chats/{chat_id}')).json()")
        assert chat["topic"] == GOAL
        assert chat["messages"][0]["parts"][1]["text"].count("step 2, Shortest paths") == 1
        both_themes(window, "session-goal")
        summary.click()  # what the teacher was told, as the learner can read it
        page.locator(".context-card[open]").first.scroll_into_view_if_needed()
        both_themes(window, "session-goal-told")
        # Today continues that session now; the goal it is on is not offered twice.
        page.goto(f"{server.url}/#/today")
        page.wait_for_selector("body[data-today='busy']")
        today = page.evaluate("async () => (await fetch('/api/today')).json()")
        assert [s["chat_id"] for s in today["steps"] if s["kind"] == "session"] == [chat_id]
        assert page.locator(".today-step[data-kind='session']").count() == 1
        assert page.locator(".today-step[data-kind='goal']").count() == 0
        assert page.locator(".today-goals").inner_text().startswith("All your goals")  # still set
    finally:
        server.stop()
