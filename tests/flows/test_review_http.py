"""Review over real HTTP (the production wiring, no model): the queue, grading, mastery explained,
the graph agreeing with it, statistics, refusals, and the CLI printing the same queue."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from datetime import UTC, datetime
from itertools import pairwise

import fsrs
import pytest
from studyhall.adapters.fakes import FixedClock
from studyhall.core.errors import InvalidInput, NotFound
from studyhall.desktop.cli import main
from studyhall.server.app import build_services
from studyhall.server.config import load_config
from studyhall.server.runtime.learner.ledgers import LearnerLedgers
from studyhall.server.runtime.library.graph_reader import GraphReader

from tests.support.graph_events import cp, edge, prop, quiz
from tests.support.session_api import PORT, scripted_app

TREE = "A tree is a connected graph without cycles."
HEAP = "A heap is a complete binary tree with the heap property."
NOON = datetime(2025, 3, 3, 12, 0, tzinfo=UTC)


def seeded_services():
    services = build_services(load_config(port=PORT))
    graph = services.graph_store
    graph.append_propositions([prop("tree", text=TREE), prop("heap", text=HEAP),
                               prop("imported", text="Only in the notes, never studied.")])
    graph.append_edges([edge("tree", "heap")])  # a tree is a prerequisite of a heap
    graph.append_quiz_events([quiz("tree", "correct", 1), quiz("heap", "miss", 2, call="c2")])
    graph.append_checkpoint(cp("r1"))
    clock = FixedClock(NOON)
    return dataclasses.replace(services, clock=clock), clock


def by_the_package(times: list[datetime], grade: fsrs.Rating) -> fsrs.Card:
    scheduler = fsrs.Scheduler(enable_fuzzing=False)
    card = fsrs.Card(card_id=1, due=times[0])
    for at in times:
        card, _ = scheduler.review_card(card, grade, at)
    return card


async def test_review_queue_grading_mastery_and_stats_over_http() -> None:
    services, clock = seeded_services()
    async with scripted_app(None, services=services) as (api, _):
        queue = (await api.http.get("/api/review")).json()
        assert queue["counts"] == {"due_today": 2, "new_today": 2, "overdue": 0}
        first, second = queue["due"]
        assert (first["node_id"], second["node_id"]) == ("tree", "heap")  # prerequisite first
        assert first["kind"] == "cloze" and "_____" in first["prompt"]
        assert first["answer"] in TREE and first["text"] == TREE
        assert first["state"] == "solid" and second["state"] == "shaky"
        assert first["retrievability"] is None and first["queue"] == "new"
        assert {"node_id", "prompt", "kind", "state", "retrievability", "due_at"} <= set(first)
        assert len((await api.http.get("/api/review?limit=1")).json()["due"]) == 1

        graded_at = [NOON]
        r = await api.http.post("/api/review/heap", json={"grade": "good", "kind": "cloze"})
        assert r.status_code == 200, r.text
        for days in (1, 4):
            graded_at.append(clock.advance(days=days))
            r = await api.http.post("/api/review/heap", json={"grade": "good"})
        card = r.json()
        expected = by_the_package(graded_at, fsrs.Rating.Good)
        assert card["stability"] == expected.stability
        assert card["difficulty"] == expected.difficulty
        assert card["due_at"] == expected.due.isoformat()
        assert card["card"] == "review" and card["reviews"] == 3
        assert set(card) >= {"node_id", "due_at", "stability", "difficulty", "mastery", "state"}

        mastery = (await api.http.get("/api/mastery/heap")).json()
        assert [e["kind"] for e in mastery["explanation"]] == ["review", "review", "review",
                                                               "quiz"]
        steps = mastery["explanation"]
        assert steps[-1]["detail"].startswith("Quiz c2/q1 on Mar 1: wrong → ")
        assert all(a["before"] == b["after"] for a, b in pairwise(steps))
        assert mastery["mastery"] == steps[0]["after"] == card["mastery"]
        assert mastery["mastery"] > second["mastery"]  # three good recalls after a miss

        graph = (await api.http.get("/api/graph")).json()
        heap = next(n for n in graph["nodes"] if n["id"] == "heap")
        assert (heap["state"], heap["score"]) == (mastery["state"], mastery["mastery"])
        assert heap["explanation"][1].startswith("review on Mar 8: good")

        stats = (await api.http.get("/api/stats")).json()
        assert len(stats["mastery_over_time"]) == 30 and len(stats["reviews_due"]) == 30
        assert stats["retention"]["target"] == 0.9 and stats["retention"]["reviews"] == 1
        assert stats["totals"]["reviewable"] == 2 and stats["totals"]["not-tried"] == 1

        clock.advance(days=60)  # the heap card is long overdue now
        later = (await api.http.get("/api/review")).json()
        heap_due = next(d for d in later["due"] if d["node_id"] == "heap")
        assert heap_due["overdue"] and 0 < heap_due["retrievability"] < 0.9
        assert later["counts"]["overdue"] == 1

        document = (await api.http.get("/api/openapi.json")).json()["paths"]
        assert {"/api/review", "/api/review/{node_id}", "/api/mastery/{node_id}",
                "/api/stats"} <= set(document)
        assert "requestBody" in document["/api/review/{node_id}"]["post"]


async def test_refusals_say_what_to_do() -> None:
    services, _ = seeded_services()
    async with scripted_app(None, services=services) as (api, _):
        r = await api.http.post("/api/review/nowhere", json={"grade": "good"})
        assert r.status_code == 404 and r.json()["error"] == "NotFound"
        assert "GET /api/graph" in r.json()["message"]
        r = await api.http.post("/api/review/heap", json={"grade": "meh"})
        assert r.status_code == 400 and set(r.json()) == {"error", "message"}
        assert '"again" | "hard" | "good" | "easy"' in r.json()["message"]
        assert (await api.http.post("/api/review/heap")).status_code == 400  # no grade
        assert (await api.http.get("/api/review?limit=many")).status_code == 400
        assert (await api.http.get("/api/review?limit=0")).status_code == 400
        assert (await api.http.get("/api/mastery/nowhere")).status_code == 404
        assert not services.config.data_dir.joinpath("learner", "reviews.jsonl").exists()


def test_the_cli_prints_the_queue_and_the_stats(capsys) -> None:
    services, _ = seeded_services()  # seeds the data dir the CLI opens
    assert services.config.data_dir.joinpath("graph", "propositions.jsonl").exists()
    assert main(["review", "--json"]) == 0
    queue = json.loads(capsys.readouterr().out)
    assert [d["node_id"] for d in queue["due"]] == ["tree", "heap"]
    assert main(["review"]) == 0
    text = capsys.readouterr().out
    assert "2 due today (2 new, 0 overdue)" in text and "Fill in the blank" in text
    assert main(["stats", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["totals"]["reviewable"] == 2 and len(stats["reviews_due"]) == 30
    assert main(["stats"]) == 0
    table = capsys.readouterr().out
    assert "Reviews due" in table and "Retention" in table
    assert "In your graph: " in table and "Concepts" not in table  # the map's words
    assert "out of review" not in text


def test_the_cli_names_the_cards_out_of_review(capsys) -> None:
    services, _ = seeded_services()

    async def take_both_out() -> None:
        async with scripted_app(None, services=services) as (api, _):
            for node in ("tree", "heap"):
                await api.http.put(f"/api/cards/{node}", json={"suspended": True})

    asyncio.run(take_both_out())
    assert main(["review"]) == 0
    text = capsys.readouterr().out
    assert "Nothing to review today" in text
    assert "2 out of review (you stopped reviewing them): heap, tree" in text


def test_nothing_due_on_an_empty_graph(capsys) -> None:
    assert main(["review"]) == 0
    assert "Nothing to review" in capsys.readouterr().out


async def test_a_teacher_observation_is_validated_and_explains_the_score() -> None:
    services, clock = seeded_services()
    async with scripted_app(None, services=services) as (api, _):
        # The ledgers' writer the tutor's record_observation goes through, over the app's stores.
        ledgers = LearnerLedgers(graph=GraphReader(services.graph_store),
                                 learner_store=services.learner_store,
                                 settings_store=services.settings_store, clock=clock,
                                 ids=services.ids)
        before = (await api.http.get("/api/mastery/heap")).json()["mastery"]
        after = ledgers.observe("heap", "misconception", "thinks a heap is sorted",
                                source_id="chat_1")
        assert after["mastery"] < before and after["state"] == "shaky"
        assert after["explanation"][0]["detail"].startswith(
            "Teacher observation on Mar 3: misconception — thinks a heap is sorted → ")
        clock.advance(minutes=5)  # events are ordered by time
        fixed = ledgers.observe("heap", "corrected", "now says only the root is min")
        assert fixed["state"] == "corrected-misconception"
        graph = (await api.http.get("/api/graph")).json()
        assert next(n for n in graph["nodes"] if n["id"] == "heap")["state"] == fixed["state"]
        for bad in (("heap", "brilliant", ""), ("heap", "solid", "x" * 501)):
            with pytest.raises(InvalidInput):
                ledgers.observe(*bad)
        with pytest.raises(NotFound):
            ledgers.observe("nowhere", "solid")


async def test_a_grade_taken_back_leaves_the_card_as_if_it_had_not_been_given() -> None:
    services, clock = seeded_services()
    async with scripted_app(None, services=services) as (api, _):
        before = (await api.http.get("/api/review?node=heap")).json()
        first = await api.http.post("/api/review/heap", json={"grade": "good"})
        clock.advance(days=1)
        queue_before = (await api.http.get("/api/review")).json()
        stats_before = (await api.http.get("/api/stats")).json()
        mastery_before = (await api.http.get("/api/mastery/heap")).json()

        # A slip: "again" pressed for a card the learner knew.
        slip = await api.http.post("/api/review/heap", json={"grade": "again"})
        assert slip.status_code == 200 and slip.json()["grade_id"].startswith("rev")
        assert slip.json()["reviews"] == 2
        undone = await api.http.delete(f"/api/grades/{slip.json()['grade_id']}")
        assert undone.status_code == 200, undone.text
        card = undone.json()
        assert card["grade_id"] is None and card["reviews"] == 1
        # Exactly the card, the queue, the statistics and the mastery before the slip.
        assert {k: card[k] for k in ("due_at", "stability", "difficulty", "state")} == {
            k: first.json()[k] for k in ("due_at", "stability", "difficulty", "state")}
        assert (await api.http.get("/api/review")).json() == queue_before
        assert (await api.http.get("/api/stats")).json() == stats_before
        assert (await api.http.get("/api/mastery/heap")).json() == mastery_before

        # Taking it back twice changes nothing; an unknown grade is a 404 in plain words.
        again = await api.http.delete(f"/api/grades/{slip.json()['grade_id']}")
        assert again.status_code == 200 and again.json() == card
        missing = await api.http.delete("/api/grades/rev_nothing")
        assert missing.status_code == 404
        assert "no review grade 'rev_nothing'" in missing.json()["message"]
        # Both undos of the first grade too: the card is new again, as before any grade.
        fresh = await api.http.delete(f"/api/grades/{first.json()['grade_id']}")
        assert (fresh.json()["reviews"], fresh.json()["card"]) == (0, "new")
        (was,), (now,) = before["due"], (await api.http.get("/api/review?node=heap")).json()["due"]
        same = ("queue", "card", "due_at", "stability", "difficulty", "reviews", "mastery")
        assert {k: now[k] for k in same} == {k: was[k] for k in same}
        assert now["card"] == "new" and now["reviews"] == 0
        ledger = services.learner_store
        assert len(ledger.grades().records) == 2 and len(ledger.undone().records) == 2


async def test_a_card_taken_out_of_review_leaves_the_queue_and_comes_back_as_it_was() -> None:
    services, _ = seeded_services()
    async with scripted_app(None, services=services) as (api, _):
        await api.http.post("/api/review/heap", json={"grade": "good"})
        queue = (await api.http.get("/api/review")).json()
        stats = (await api.http.get("/api/stats")).json()
        mastery = (await api.http.get("/api/mastery/heap")).json()
        assert "heap" in [d["node_id"] for d in queue["due"]] and mastery["suspended"] is False

        out = await api.http.put("/api/cards/heap", json={"suspended": True})
        assert out.status_code == 200 and out.json() == {"node_id": "heap", "suspended": True}
        after = (await api.http.get("/api/review")).json()
        assert [d["node_id"] for d in after["due"]] == ["tree"]
        assert after["suspended"] == [{"node_id": "heap", "text": HEAP}] and queue["suspended"] == []
        assert after["counts"]["due_today"] == queue["counts"]["due_today"] - 1
        held = (await api.http.get("/api/mastery/heap")).json()
        # Out of review, not forgotten: its score and history stay.
        assert held["suspended"] is True and held["due"] is False
        assert (held["mastery"], held["explanation"]) == (mastery["mastery"], mastery["explanation"])
        # "Review now" still reviews it on purpose.
        alone = (await api.http.get("/api/review?node=heap")).json()["due"]
        assert [d["node_id"] for d in alone] == ["heap"]

        back = await api.http.put("/api/cards/heap", json={"suspended": False})
        assert back.json() == {"node_id": "heap", "suspended": False}
        assert (await api.http.get("/api/review")).json() == queue
        assert (await api.http.get("/api/stats")).json() == stats
        assert (await api.http.get("/api/mastery/heap")).json() == mastery

        for body, status in (({"suspended": "yes"}, 400), ({}, 400)):
            r = await api.http.put("/api/cards/heap", json=body)
            assert r.status_code == status and "The card was not changed" in r.json()["message"]
        r = await api.http.put("/api/cards/nowhere", json={"suspended": True})
        assert r.status_code == 404
        assert len(services.learner_store.suspensions().records) == 2  # refusals wrote nothing
