"""Review and Stats in the real window, with no API key configured: a learner with three weeks of
history reviews today's cards from the keyboard alone (Space, 1–4), sees the summary, the empty
state after it, the stats plots and a node's mastery explained in the graph's dock; a brand-new
learner sees empty states that say where cards come from, and sets the review limits.
Screenshots at 1024×700, light and dark."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta

import httpx
import pytest
from studyhall.adapters.fakes import FixedClock

from tests.support.embedder import HashEmbedder
from tests.support.live_server import start_server
from tests.support.review_lesson import SCRIPT, hold_lesson, review_history
from tests.support.themes import both_themes

pytestmark = pytest.mark.browser

SIZE = {"width": 1024, "height": 700}


def open_app(page, server, route: str = "") -> None:
    page.set_viewport_size(SIZE)
    page.goto(server.launch_url)
    page.wait_for_selector("body[data-ready='1']")
    if route:
        page.goto(f"{server.url}/#{route}")



def seeded_learner(data_dir):
    """Three weeks of study, written through a scripted server whose clock is moved; then the
    server is stopped so the test can open the same data with no model configured at all."""
    today = datetime.now().astimezone().replace(hour=9, minute=0, second=0, microsecond=0)
    start = today - timedelta(days=21)
    clock = FixedClock(start - timedelta(hours=1))
    server = start_server(data_dir, SCRIPT,
                          prepare=lambda s: replace(s, clock=clock, embedder=HashEmbedder()))
    try:
        hold_lesson(server)
        given = review_history(server, clock, start, days=21)
    finally:
        server.stop()
    assert given >= 15  # three weeks of reviews: enough for every plot
    return given


def test_review_by_keyboard_with_no_key_then_stats_and_the_dock(window, tmp_path):
    history = seeded_learner(tmp_path / "data")
    # No script and no key: nothing can call a model. (A hashing embedder: no model to load.)
    server = start_server(tmp_path / "data", None,
                          prepare=lambda s: replace(s, embedder=HashEmbedder()))
    try:
        headers = {"Authorization": f"Bearer {server.token}"}
        with httpx.Client(base_url=server.url, headers=headers) as http:
            settings = http.get("/api/settings").json()
            due = http.get("/api/review?limit=100").json()
        assert not settings["scripted"] and settings["needed_keys"]  # no key configured
        assert due["counts"]["due_today"] >= 2 and due["counts"]["new_today"] >= 2
        page = window.page
        open_app(page, server)
        count = page.locator(".review-link .nav-count")
        count.wait_for()
        assert count.inner_text() == str(due["counts"]["due_today"])

        page.goto(f"{server.url}/#/review")
        page.wait_for_selector("body[data-review='question']")
        total = due["counts"]["due_today"]
        # What is left, this card included (issue 29: it no longer reads "1 of 5, 2 of 6 …").
        assert page.locator(".review-progress").inner_text() == f"{total} cards left"
        assert page.locator(".review-prompt").inner_text().strip()
        assert page.locator(".review-answer").is_hidden()
        window.shot("review-queue-card-light")

        page.keyboard.press("Space")
        page.wait_for_selector("body[data-review='answer']")
        waits = page.locator(".grade-wait").all_inner_texts()
        assert len(waits) == 4 and all(re.search(r"\d|<1", w) for w in waits), waits
        assert page.locator(".review-answer").is_visible()
        window.shot("review-queue-answer-light")

        presses = 0
        cloze_shot = False
        keys = ["1"] + ["4"] * 40  # forget the first card once, then know everything
        while page.evaluate("document.body.dataset.review") != "summary":
            assert presses < 40, "the review never ended"
            if page.evaluate("document.body.dataset.review") == "question":
                page.keyboard.press("Space")
                page.wait_for_selector("body[data-review='answer']")
            if not cloze_shot and page.locator(".blank.filled").count():
                window.shot("review-cloze-answer-light")  # the gap filled in place
                cloze_shot = True
            page.keyboard.press(keys[presses])
            presses += 1
            page.wait_for_selector("body[data-review='question'], body[data-review='summary']")
        assert cloze_shot  # a new card is a cloze
        grades = server.services.learner_store.grades().records
        assert len(grades) == history + presses  # every key press recorded one grade
        summary = page.locator(".summary-line").inner_text()
        times = f" in {presses} grades" if presses > total else ""  # a forgotten card came back
        assert re.fullmatch(rf"{total} cards reviewed{times} · 1 to relearn \w.*", summary), summary
        page.wait_for_selector(".review-link .nav-count[hidden]", state="attached")  # none left
        both_themes(window, "review-summary")

        # Back later: nothing due, and when the next card comes.
        page.goto(f"{server.url}/#/")
        page.goto(f"{server.url}/#/review")
        page.wait_for_selector("body[data-review='empty']")
        assert "next card is due" in page.locator(".review-empty").inner_text()
        both_themes(window, "review-empty-done")

        # Stats: the three plots, with labelled axes.
        page.goto(f"{server.url}/#/stats")
        page.wait_for_selector("body[data-stats='ready']")
        assert page.locator("svg.plot").count() == 3
        assert page.locator("svg.plot .line").count() >= 1  # mastery over time
        assert page.locator("svg.plot .bars.planned .bar").count() >= 1  # reviews ahead
        assert page.locator("svg.plot .axis-title", has_text="mastery").count() == 1
        assert "target 90%" in page.locator(".plot-card").nth(2).inner_text()
        # Each region row says why a mean over 0.8 can still be shaky, in the map's word.
        assert page.locator("h3", has_text="By region of your map").count() == 1
        rows = page.locator(".topic-list li")
        assert rows.count() >= 1
        assert "solid when every idea in it is" in (rows.first.get_attribute("title") or "")
        both_themes(window, "stats", "svg.plot")
        page.locator(".plot-card").nth(2).scroll_into_view_if_needed()
        both_themes(window, "stats-retention", "svg.plot")

        # The graph's dock: a node's mastery explained, and "Review now" (keyboard again).
        page.goto(f"{server.url}/#/")
        page.wait_for_function("() => Number(document.body.dataset.graphNodes || 0) >= 6")
        # Click into the box ("/" while Home mounts is tested in test_home_dock_links.py).
        page.locator(".search-input").click()
        # The first search of a process loads the local encoder (seconds on a busy machine);
        # the results show once the last keystroke's answer is in.
        with page.expect_response(lambda r: "/api/graph/search?q=children%20of%20index" in r.url,
                                  timeout=60_000):
            page.keyboard.type("children of index")
        page.wait_for_selector(".search-result", timeout=60_000)
        page.keyboard.press("Enter")
        page.wait_for_selector(".node-mastery:not([aria-busy]) .mastery-steps")
        page.locator(".more-steps summary").click()  # the older events, the quiz among them
        dock = page.locator(".node-mastery").inner_text()
        assert "Quiz on " in dock and "probe_q" not in dock and "Next review" in dock
        assert re.search(r"Review on \w+ \d+: forgot \(again\) → 0\.\d\d", dock), dock
        page.wait_for_function("() => window.__studyhall.graph.camera.anim === null")
        both_themes(window, "node-mastery")

        page.get_by_role("button", name="Review now").click()
        page.wait_for_selector("body[data-review='question']")
        assert page.locator(".review-progress").inner_text() == "Reviewing one card"
        both_themes(window, "review-card", ".review-prompt")
        page.keyboard.press("Enter")
        page.wait_for_selector("body[data-review='answer']")
        both_themes(window, "review-answer", ".grade")
        page.keyboard.press("3")
        page.wait_for_selector("body[data-review='summary']")
        assert page.locator(".summary-line").inner_text() == "1 card reviewed · all recalled"
        assert len(server.services.learner_store.grades().records) == history + presses + 1
    finally:
        server.stop()


def test_a_new_learner_sees_where_cards_come_from_and_sets_the_limits(window, tmp_path):
    server = start_server(tmp_path / "data", None)
    try:
        page = window.page
        open_app(page, server, "/review")
        page.wait_for_selector("body[data-review='empty']")
        text = page.locator(".review-empty").inner_text()
        assert "No review cards yet" in text and "Answer the quizzes in a session" in text
        # The way in with no key: "Quiz me" on a note, which Today picks.
        assert "“Quiz me” on one of your notes" in text
        page.get_by_role("button", name="What to learn today").click()
        page.wait_for_function("() => location.hash.startsWith('#/today')")
        page.go_back()
        page.wait_for_selector("body[data-review='empty']")
        assert page.locator(".review-link .nav-count").is_hidden()
        both_themes(window, "review-empty-new")

        page.goto(f"{server.url}/#/stats")
        page.wait_for_selector("body[data-stats='empty']")
        assert "Nothing to plot yet" in page.locator(".stats-empty").inner_text()
        both_themes(window, "stats-empty")

        page.goto(f"{server.url}/#/settings")
        page.fill("#review-new", "5")
        page.fill("#review-retention", "99")  # over the range: the browser refuses to send it
        page.get_by_role("button", name="Save review limits").click()
        assert server.services.settings_store.load().desired_retention == 0.9
        page.fill("#review-retention", "85")
        page.get_by_role("button", name="Save review limits").click()
        page.wait_for_selector(".toast:has-text('Review limits saved')")
        saved = server.services.settings_store.load()
        assert (saved.new_cards_per_day, saved.desired_retention) == (5, 0.85)
        page.locator("#review-settings-title").scroll_into_view_if_needed()
        window.shot("settings-review-light")
    finally:
        server.stop()
