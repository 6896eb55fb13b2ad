"""Today in the real window with no API key, 1024×700, light and dark: a new learner's empty
state (the window keeps opening Home; #/today offers import and ask), a busy day the window
opens on by itself (reviews, the open session, learn next, a misconception — one click each),
and all done."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest

from tests.support.embedder import HashEmbedder
from tests.support.live_server import start_server
from tests.support.themes import both_themes
from tests.support.today_history import (
    NOTE,
    note_text,
    seed_all_done,
    seed_learning,
    seed_notes,
)

pytestmark = pytest.mark.browser

SIZE = {"width": 1024, "height": 700}


def server_with(data_dir, *seeds):
    now = datetime.now().astimezone()

    def prepare(services):
        for seed in seeds:
            seed(services, now)
        return replace(services, embedder=HashEmbedder())

    return start_server(data_dir, None, prepare=prepare)


def launch(page, server) -> None:
    page.set_viewport_size(SIZE)
    page.goto(server.launch_url)
    page.wait_for_selector("body[data-ready='1']")


def test_a_new_learner_sees_home_then_todays_empty_state(window, tmp_path):
    server = server_with(tmp_path / "data")
    try:
        page = window.page
        launch(page, server)
        assert page.evaluate("location.hash") in ("", "#", "#/")  # nothing to do: Home opens
        first = page.locator("nav.sidebar a.nav-item").first
        assert first.inner_text().strip().endswith("Today")
        first.click()
        page.wait_for_selector("body[data-today='empty']")
        assert page.locator("#today-title").inner_text() == "Welcome to Studyhall"
        steps = page.locator(".today-step")
        assert steps.count() == 2
        assert [steps.nth(i).get_attribute("data-kind") for i in range(2)] == ["import", "ask"]
        both_themes(window, "today-empty")
        steps.nth(0).locator("button").click()
        page.wait_for_function("() => location.hash === '#/sources'")
    finally:
        server.stop()


def test_a_busy_day_opens_first_and_each_step_is_one_click(window, tmp_path):
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "graphs.md").write_text(note_text())
    notes = lambda services, now: seed_notes(services, now, root=str(vault))
    server = server_with(tmp_path / "data", notes, seed_learning)
    try:
        page = window.page
        launch(page, server)
        page.wait_for_selector("body[data-today='busy']")  # the window opened on Today
        assert page.evaluate("location.hash") == "#/today"
        steps = page.locator(".today-step")
        kinds = [steps.nth(i).get_attribute("data-kind") for i in range(steps.count())]
        assert kinds == ["review", "session", "learn", "misconception"]
        assert "Review 2 cards" in steps.nth(0).inner_text()
        assert "step 2 of 3" in steps.nth(1).inner_text()
        assert "Shortest paths" in steps.nth(2).inner_text()
        assert "set one that spans sessions" in page.locator(".today-goals").inner_text()  # none yet
        link = page.locator("nav.sidebar a.today-link")
        assert link.get_attribute("aria-current") == "page"
        both_themes(window, "today-busy")
        page.evaluate("document.querySelector('.today-scroll').scrollTo(0, 1e6)")
        both_themes(window, "today-busy-end")
        # No key: "learn next" opens the note with Quiz me rather than a session.
        steps.nth(2).locator("button").click()
        page.wait_for_function(f"() => location.hash === '#/sources/{NOTE}?quiz=1'")
        page.wait_for_selector("#dock[data-reader-tab='quiz']")  # the reader, on Quiz me
        page.go_back()
        page.wait_for_selector("body[data-today='busy']")
        page.locator(".today-step").nth(0).locator("button").click()
        page.wait_for_function("() => location.hash === '#/review'")
        page.wait_for_selector("body[data-review='question']")
    finally:
        server.stop()


def test_all_done_says_so_and_offers_what_else_to_do(window, tmp_path):
    server = server_with(tmp_path / "data", seed_all_done)
    try:
        page = window.page
        launch(page, server)
        page.goto(f"{server.url}/#/today")
        page.wait_for_selector("body[data-today='done']")
        assert page.locator("#today-title").inner_text() == "All done for today"
        assert page.locator(".today-step").count() == 0
        assert "Your next review is due in " in page.locator(".today-done").inner_text()
        both_themes(window, "today-done")
    finally:
        server.stop()


def test_with_a_model_learn_next_starts_a_session_on_the_topic(window, tmp_path):
    now = datetime.now().astimezone()
    script = {"prober": [{"text": "What do you already know about shortest paths?"}] * 2,
              "labeler": [{"text": "Graphs"}] * 5}

    def prepare(services):
        seed_notes(services, now)
        seed_learning(services, now)
        return replace(services, embedder=HashEmbedder())

    server = start_server(tmp_path / "data", script, prepare=prepare)
    try:
        page = window.page
        launch(page, server)
        page.wait_for_selector("body[data-today='busy']")
        learn = page.locator(".today-step[data-kind='learn']")
        assert learn.locator("button").inner_text() == "Learn it in a session"
        learn.locator("button").click()
        page.wait_for_function("() => location.hash.startsWith('#/session/')")
        chat_id = page.evaluate("location.hash").split("/")[2].split("?")[0]
        topic = page.evaluate(f"async () => (await (await fetch('/api/chats/{chat_id}')).json()).topic")
        assert topic == "Shortest paths with Dijkstra's algorithm"
    finally:
        server.stop()


def placed(services, now) -> None:
    """Every topic has its place on the map already (as after an import), so Home has nothing
    to lay out and draws the first map it reads."""
    from studyhall.core.contracts.graph import Position
    from studyhall.core.library.graph.snapshot import graph_snapshot

    nodes = graph_snapshot(services.graph_store).nodes
    services.graph_store.save_positions({n.id: Position(x=40.0 * i, y=25.0 * (i % 3))
                                         for i, n in enumerate(nodes)})


def test_home_opened_after_a_review_shows_the_graph_as_it_is_now(window, tmp_path):
    # The window opens on Today; the map asked for as the page loaded is from before the
    # review, so Home, opened after it, must not show that one.
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "graphs.md").write_text(note_text())
    notes = lambda services, now: seed_notes(services, now, root=str(vault))
    server = server_with(tmp_path / "data", notes, seed_learning, placed)
    try:
        page = window.page
        launch(page, server)
        page.wait_for_selector("body[data-today='busy']")
        totals = "() => document.querySelector('.state-totals')?.innerText"
        page.click("nav.sidebar a.nav-item:has-text('Review')")
        page.wait_for_selector("body[data-review='question']")
        for _ in range(2):  # both cards, remembered at once: the misconception is corrected
            page.keyboard.press("Space")
            page.wait_for_selector("body[data-review='answer']")
            page.keyboard.press("4")
            page.wait_for_function("() => ['question', 'summary'].includes(document.body.dataset.review)")
        page.wait_for_selector("body[data-review='summary']")
        page.click("nav.sidebar a.nav-item:has-text('Home')")
        page.wait_for_function(f"() => Boolean(({totals})())")
        after_review = page.evaluate(totals)
        assert "Corrected misconception\n1" in after_review  # the grade, on the map
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        page.goto(f"{server.url}/#/")
        page.wait_for_function(f"() => Boolean(({totals})())")
        assert after_review == page.evaluate(totals)  # as a fresh read of the graph says
        assert not window.page_errors
    finally:
        server.stop()
