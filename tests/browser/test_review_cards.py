"""Review of an imported study vault with no key: cards from the notes themselves (a
definition or a key-term cloze, plain text, the note named), a progress line that counts what
is left, and no "chance you recall it" on a card FSRS has no history for. Screenshots at
1024×700, light and dark."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from studyhall.adapters.store import JsonlGraphStore, JsonlLearnerStore
from studyhall.core.contracts.learner import SourceQuizAnswered
from studyhall.core.library.graph.snapshot import graph_snapshot

from tests.support.embedder import HashEmbedder
from tests.support.live_server import start_server
from tests.support.notes import importer
from tests.support.study_vault import write_study_vault
from tests.support.themes import both_themes

pytestmark = pytest.mark.browser

STUDIED = ("Binary heap", "Mitochondria", "Hash table")


def studied_vault(data_dir):
    """The study vault imported with no model, and three of its notes answered once in Quiz me
    an hour ago: they are review cards now, never reviewed."""
    vault = write_study_vault(data_dir.parent / "vault")
    # In a thread of its own: Playwright's event loop runs on this one.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, importer(data_dir).run(str(vault), embed=False)).result()

    nodes = {n.text: n for n in graph_snapshot(JsonlGraphStore(data_dir / "graph")).nodes}
    an_hour_ago = datetime.now(UTC) - timedelta(hours=1)
    JsonlLearnerStore(data_dir / "learner").append_quiz_answers([
        SourceQuizAnswered(id=f"sqa_{i}", node_id=nodes[t].id, verdict="correct",
                           source_id=nodes[t].sources[0], quiz_id="squiz_1", question=i,
                           at=an_hour_ago) for i, t in enumerate(STUDIED)])


def test_review_counts_down_what_is_left_and_shows_no_recall_chance_on_a_new_card(window,
                                                                                   tmp_path):
    studied_vault(tmp_path / "data")
    server = start_server(tmp_path / "data", None,
                          prepare=lambda s: replace(s, embedder=HashEmbedder()))
    try:
        with httpx.Client(base_url=server.url,
                          headers={"Authorization": f"Bearer {server.token}"}) as http:
            due = http.get("/api/review?limit=100").json()
        assert due["counts"]["due_today"] == len(STUDIED)
        assert {c["topic"] for c in due["due"]} == set(STUDIED)
        assert not any("[[" in c["prompt"] + c["answer"] for c in due["due"])

        page = window.page
        page.set_viewport_size({"width": 1024, "height": 700})
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        page.goto(f"{server.url}/#/review")
        page.wait_for_selector("body[data-review='question']")
        progress = page.locator(".review-progress")
        assert progress.inner_text() == "3 cards left"
        kind = page.locator(".review-kind").inner_text()
        assert any(t.upper() in kind.upper() for t in STUDIED), kind  # which note it asks
        dock = page.locator(".review-dock").inner_text()
        assert "A new card: this is its first review." in dock and "Chance you recall" not in dock
        both_themes(window, "review-topic-card", ".review-prompt")

        page.keyboard.press("Space")
        page.wait_for_selector("body[data-review='answer']")
        assert "[[" not in page.locator(".review-answer").inner_text()
        both_themes(window, "review-topic-answer", ".grade")

        lefts = [3]
        for _ in range(12):  # Good, then Easy: a learning step may bring a card back today
            page.keyboard.press("3" if len(lefts) == 1 else "4")
            page.wait_for_selector("body[data-review='question'], body[data-review='summary']")
            if page.evaluate("document.body.dataset.review") == "summary":
                break
            text = progress.inner_text()
            match = re.fullmatch(r"(?:(\d+) cards left|Last card) · (\d+) done", text)
            assert match, text
            lefts.append(int(match.group(1) or 1))
            assert lefts[-1] <= lefts[-2], lefts  # never grows as you grade
            dock = page.locator(".review-dock").inner_text()
            assert "Chance you recall" not in dock  # not one card has a review history yet
            if len(lefts) == 2:
                both_themes(window, "review-topic-progress", ".review-prompt")
            page.keyboard.press("Space")
            page.wait_for_selector("body[data-review='answer']")
        page.wait_for_selector("body[data-review='summary']")
        assert page.locator(".summary-line").inner_text().startswith("3 cards reviewed")
    finally:
        server.stop()
