"""Undo in a review, in the real window with no key: "1" pressed by mistake is taken back with
"u" (the card comes back as it was, and nothing counts it), and the last grade of the day is
taken back from the summary with its button. Screenshots at 1024×700, light and dark."""

from __future__ import annotations

from dataclasses import replace

import httpx
import pytest
from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.embedder import HashEmbedder
from tests.support.graph_events import cp, prop, quiz
from tests.support.live_server import start_server
from tests.support.themes import both_themes

pytestmark = pytest.mark.browser

SIZE = {"width": 1024, "height": 700}
TREE = "A tree is a connected graph without cycles."
HEAP = "A heap is a complete binary tree with the heap property."


def seeded(data_dir):
    graph = build_services(load_config(data_dir=data_dir)).graph_store
    graph.append_propositions([prop("tree", text=TREE), prop("heap", text=HEAP)])
    graph.append_quiz_events([quiz("tree", "correct", 1), quiz("heap", "miss", 2, call="c2")])
    graph.append_checkpoint(cp("r1"))


def review_open(page, tmp_path):  # type: ignore[no-untyped-def]
    """A live server over the seeded graph, no key, its review open at the first card."""
    seeded(tmp_path / "data")
    server = start_server(tmp_path / "data", None, prepare=lambda s: replace(s, embedder=HashEmbedder()))
    try:
        page.set_viewport_size(SIZE)
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        page.goto(f"{server.url}/#/review")
        page.wait_for_selector("body[data-review='question']")
    except BaseException:
        server.stop()
        raise
    return server


def select_on_map(page, server, node_id: str) -> None:  # type: ignore[no-untyped-def]
    """Home, with ``node_id`` selected: its dock open."""
    page.goto(server.home_url)
    page.wait_for_function("() => window.__studyhall && window.__studyhall.graph"
                           " && window.__studyhall.graph.model", timeout=60_000)
    page.evaluate("""(id) => { const g = window.__studyhall.graph;
        g.select(g.model.index.get(id), { fly: true }); }""", node_id)


def prompt(page) -> str:
    return page.locator(".review-prompt").inner_text()


def test_a_grade_given_by_mistake_is_taken_back_and_the_card_comes_back(window, tmp_path):
    server = review_open(window.page, tmp_path)
    try:
        page = window.page
        assert page.locator(".undo-grade").count() == 0  # nothing to take back yet
        first = prompt(page)
        page.keyboard.press("Space")
        page.wait_for_selector("body[data-review='answer']")
        page.keyboard.press("1")  # a slip: "Again" for a card the learner knew
        page.wait_for_function(f"() => document.querySelector('.review-prompt')?.innerText !== {first!r}")
        undo = page.locator(".undo-grade")
        assert undo.inner_text().startswith("↶ Undo “Again”")
        # "Again" brings the card back today: two left still, one done.
        assert page.locator(".review-progress").inner_text() == "2 cards left · 1 done"
        both_themes(window, "review-undo", ".undo-grade")

        page.keyboard.press("u")
        page.wait_for_function(f"() => document.querySelector('.review-prompt')?.innerText === {first!r}")
        assert page.evaluate("document.body.dataset.review") == "question"
        assert page.locator(".undo-grade").count() == 0
        assert page.locator(".review-progress").inner_text() == "2 cards left"
        store = server.services.learner_store
        assert len(store.grades().records) == 1 and len(store.undone().records) == 1

        # Graded again (a new card comes back while it is learnt), then the day's last grade
        # taken back from the summary.
        for _ in range(12):
            if page.evaluate("document.body.dataset.review") == "summary":
                break
            page.keyboard.press("Space")
            page.wait_for_selector("body[data-review='answer']")
            page.keyboard.press("4")
            page.wait_for_selector("body[data-review='question'], body[data-review='summary']")
        assert page.evaluate("document.body.dataset.review") == "summary"
        assert "2 cards reviewed" in page.locator(".summary-line").inner_text()
        given = len(store.grades().records)
        page.locator(".review-done .undo-grade").click()
        page.wait_for_selector("body[data-review='question']")
        assert len(store.undone().records) == 2 and len(store.grades().records) == given
        assert page.locator(".undo-grade").inner_text().startswith("↶ Undo “Easy”")  # the one before
        assert not window.page_errors and not window.console_errors
    finally:
        server.stop()


def test_a_card_not_worth_reviewing_is_taken_out_and_its_topic_puts_it_back(window, tmp_path):
    server = review_open(window.page, tmp_path)
    try:
        page = window.page
        assert page.locator(".review-progress").inner_text() == "2 cards left"
        first = prompt(page)
        gone = "heap" if "heap" in first else "tree"
        page.click(".suspend-card")
        page.wait_for_function(f"() => document.querySelector('.review-prompt')?.innerText !== {first!r}")
        assert page.locator(".review-progress").inner_text() == "Last card"
        assert "is out of your reviews" in page.locator(".toast").inner_text()
        both_themes(window, "review-suspended", ".toast")
        (held,) = server.services.learner_store.suspensions().records
        assert (held.node_id, held.suspended) == (gone, True)
        assert not server.services.learner_store.grades().records  # not a grade

        # On the map, its topic says so and puts it back.
        select_on_map(page, server, gone)
        page.wait_for_selector(".node-mastery:not([aria-busy]) .suspend-toggle")
        assert "Out of your reviews" in page.locator(".node-mastery .review-when").inner_text()
        page.locator(".node-mastery").scroll_into_view_if_needed()
        both_themes(window, "review-suspended-dock", ".suspend-toggle")
        page.click(".suspend-toggle:has-text('Put it back in your reviews')")
        page.wait_for_selector(".suspend-toggle:has-text('Stop reviewing it')")
        assert "Out of your reviews" not in page.locator(".node-mastery .review-when").inner_text()
        page.goto(f"{server.url}/#/review")
        page.wait_for_selector("body[data-review='question']")
        assert page.locator(".review-progress").inner_text() == "2 cards left"
        assert not window.page_errors and not window.console_errors
    finally:
        server.stop()


def test_the_cards_out_of_review_are_listed_beside_an_empty_review_and_put_back(window, tmp_path):
    server = review_open(window.page, tmp_path)
    try:
        page = window.page
        first = prompt(page)  # take both cards out
        page.click(".suspend-card")
        page.wait_for_function(
            f"() => document.querySelector('.review-prompt')?.innerText !== {first!r}")
        page.click(".suspend-card")
        page.wait_for_selector("body[data-review='empty']")
        assert page.locator(".review-empty h1").inner_text() == "Nothing in your reviews"
        assert "You took both your cards out of review" in page.locator(".review-empty").inner_text()
        listed = page.locator(".out-of-review-card .out-of-review-text").all_inner_texts()
        assert listed == [HEAP, TREE]  # by their text
        assert page.locator(".out-of-review h3").text_content() == "Out of review (2)"
        both_themes(window, "review-out-of-review", ".out-of-review")
        put_back = page.locator(f".out-of-review-card:has-text('{TREE}') button")
        # A refused "Put back" says why and can be tried again.
        page.route("**/api/cards/**", lambda route: route.fulfill(
            status=503, json={"error": "StoreError", "message": "The disk is full."}))
        put_back.click()
        page.wait_for_selector(".toast-error:has-text('The disk is full.')")
        assert "still out of your reviews" in page.locator(".toast-error").inner_text()
        assert put_back.is_enabled()
        page.unroute("**/api/cards/**")
        put_back.click()
        page.wait_for_selector("body[data-review='question']")
        # The card on screen is the one put back: tree's (solid; heap's is shaky).
        due = page.evaluate("async () => (await (await fetch('/api/review')).json())"
                            ".due.map((d) => d.node_id)")
        assert due == ["tree"] and "Solid" in page.locator(".review-card-head").inner_text()
        held = {s.node_id: s.suspended for s in server.services.learner_store.suspensions().records}
        assert held == {"heap": True, "tree": False}
        assert not window.page_errors
        assert all("status of 503" in e for e in window.console_errors)  # the refusal above
    finally:
        server.stop()


def test_one_card_reviewed_alone_is_taken_out_and_put_back_in_place(window, tmp_path):
    server = review_open(window.page, tmp_path)
    try:
        page = window.page
        page.goto(f"{server.url}/#/review?node=tree")
        page.wait_for_selector("body[data-review='question'] .review-progress:has-text('Reviewing one card')")
        page.keyboard.press("Space")  # the answer is showing when the learner decides
        page.wait_for_selector("body[data-review='answer']")
        shown = page.locator(".review-answer").inner_text()
        page.click(".suspend-card")
        # The card stays on screen, its answer still shown; the aside says where it stands.
        page.wait_for_selector(".out-of-review-note .put-back-card")
        assert "Out of your reviews" in page.locator(".out-of-review-note").inner_text()
        assert page.locator(".review-answer").inner_text() == shown
        assert page.locator(".grades button").count() == 4  # it can still be graded
        assert page.evaluate("() => document.activeElement.classList.contains('put-back-card')")
        held = {s.node_id: s.suspended for s in server.services.learner_store.suspensions().records}
        assert held == {"tree": True}
        page.wait_for_selector(".review-dock:has-text('1 card to go')")  # was 2: heap only now
        both_themes(window, "review-one-card-out", ".out-of-review-note")

        # Reached again from its topic's "Review now", it still says so.
        page.goto(f"{server.url}/#/review")
        page.wait_for_selector("body[data-review='question']")
        page.goto(f"{server.url}/#/review?node=tree")
        page.wait_for_selector(".out-of-review-note")
        page.click(".put-back-card")
        page.wait_for_selector(".review-aside .suspend-card")
        assert "back in your reviews" in page.locator(".toast").last.inner_text()
        held = {s.node_id: s.suspended for s in server.services.learner_store.suspensions().records}
        assert held == {"tree": False}
        # Graded, the one card is done as before.
        page.keyboard.press("Space")
        page.keyboard.press("3")
        page.wait_for_selector("body[data-review='summary']")
        assert not window.page_errors and not window.console_errors
    finally:
        server.stop()


def test_a_card_just_graded_speaks_of_no_chance_of_recall_on_the_map(window, tmp_path):
    # A minute after its first grade FSRS reads 100% for any card, even one just forgotten:
    # the topic's dock says when it comes back, and a chance only once the card has graduated.
    server = review_open(window.page, tmp_path)
    try:
        page = window.page
        headers = {"Authorization": f"Bearer {server.token}"}
        graded = httpx.post(f"{server.url}/api/review/heap", json={"grade": "again"},
                            headers=headers, timeout=30).json()
        assert graded["card"] in ("learning", "relearning") and graded["retrievability"] > 0.95
        select_on_map(page, server, "heap")
        page.wait_for_selector(".node-mastery:not([aria-busy]) .review-when")
        line = page.locator(".node-mastery .review-when").inner_text()
        assert line.startswith(("In today's reviews", "Next review")) and "chance" not in line, line
    finally:
        server.stop()
