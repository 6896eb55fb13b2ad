"""Kept flashcards in the review queue: an artifact's cards make their nodes reviewable and are
what the review shows (front as the prompt, back as the answer); a grade is a review grade on
the node (its FSRS card and mastery move); keeping twice adds nothing; retiring the artifact
takes its cards out; several cards on one node take turns, newest first."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

from studyhall.adapters.fakes import FixedClock
from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.graph_events import cp, prop
from tests.support.session_api import PORT, scripted_app

NOON = datetime(2025, 3, 3, 12, 0, tzinfo=UTC)
TREE = "A tree is a connected graph without cycles."
HEAP = "A binary heap keeps its minimum at the root."
CARDS = [
    {"node_id": "tree", "front": "What is a tree?", "back": "A connected graph without cycles.",
     "evidence": "a connected graph without cycles"},
    {"node_id": None, "front": "Unlinked card", "back": "never queued"},
    {"node_id": "not-in-graph", "front": "Q", "back": "A"},
]


def imported_graph():
    """Two imported nodes with no learner evidence: not reviewable on their own."""
    services = build_services(load_config(port=PORT))
    services.graph_store.append_propositions([prop("tree", text=TREE), prop("heap", text=HEAP)])
    services.graph_store.append_checkpoint(cp("r1"))
    return dataclasses.replace(services, clock=FixedClock(NOON))


async def queue(api) -> list[dict]:
    r = await api.http.get("/api/review")
    assert r.status_code == 200, r.text
    return r.json()["due"]


async def test_a_kept_card_is_reviewed_and_its_grade_moves_the_node() -> None:
    services = imported_graph()
    async with scripted_app(None, services=services) as (api, runtime):
        assert await queue(api) == []  # imported, never studied: nothing to review
        learner = runtime.learner  # the façade the workbench keeps cards through
        assert await learner.keep_flashcards("art_1", CARDS) == 1
        assert await learner.keep_flashcards("art_1", CARDS) == 0  # idempotent
        assert len(services.learner_store.flashcards().records) == 1

        (card,) = await queue(api)
        assert card["node_id"] == "tree" and card["kind"] == "flashcard"
        assert card["prompt"] == "What is a tree?"
        assert card["answer"] == "A connected graph without cycles."
        assert card["evidence"] == "a connected graph without cycles"
        assert card["queue"] == "new" and card["mastery"] is None

        r = await api.http.post("/api/review/tree", json={"grade": "good", "kind": "flashcard"})
        assert r.status_code == 200, r.text
        graded = r.json()
        assert graded["reviews"] == 1 and graded["mastery"] is not None
        (grade,) = services.learner_store.grades().records
        assert grade.node_id == "tree" and grade.prompt_kind == "flashcard"
        mastery = (await api.http.get("/api/mastery/tree")).json()
        assert mastery["explanation"] and mastery["explanation"][0]["kind"] == "review"
        # Its card's phase, so the dock speaks of a chance of recall only once it has graduated.
        assert mastery["card"] == graded["card"] and mastery["card"] in ("learning", "review")


async def test_retiring_the_artifact_takes_its_cards_out() -> None:
    services = imported_graph()
    async with scripted_app(None, services=services) as (api, runtime):
        learner = runtime.learner  # the façade the workbench keeps cards through
        await learner.keep_flashcards("art_1", [
            {"node_id": "heap", "front": "Where is a min-heap's minimum?", "back": "At the root."}])
        assert [c["node_id"] for c in await queue(api)] == ["heap"]
        await learner.retire_flashcards("art_1")
        await learner.retire_flashcards("art_1")  # nothing left to retire: adds nothing
        assert len(services.learner_store.retirements().records) == 1
        assert await queue(api) == []
        # Kept again after the deletion (a new artifact generation): back in the queue.
        assert await learner.keep_flashcards("art_1", [
            {"node_id": "heap", "front": "Where is a min-heap's minimum?", "back": "At the root."}
        ]) == 1
        assert [c["kind"] for c in await queue(api)] == ["flashcard"]


async def test_a_graded_node_stays_reviewable_after_its_card_is_retired() -> None:
    services = imported_graph()
    async with scripted_app(None, services=services) as (api, runtime):
        learner = runtime.learner  # the façade the workbench keeps cards through
        await learner.keep_flashcards("art_1", CARDS[:1])
        await api.http.post("/api/review/tree", json={"grade": "again", "kind": "flashcard"})
        await learner.retire_flashcards("art_1")
        r = await api.http.get("/api/review?node=tree")
        assert r.json()["due"][0]["kind"] in ("cloze", "recall")  # its own prompt again


async def test_several_cards_on_one_node_take_turns_newest_first() -> None:
    services = imported_graph()
    clock = FixedClock(NOON)
    services = dataclasses.replace(services, clock=clock)
    async with scripted_app(None, services=services) as (api, runtime):
        learner = runtime.learner  # the façade the workbench keeps cards through
        await learner.keep_flashcards("art_old", [
            {"node_id": "tree", "front": "Old front", "back": "Old back"}])
        clock.advance(seconds=60)
        await learner.keep_flashcards("art_new", [
            {"node_id": "tree", "front": "New front", "back": "New back"}])
        fronts = []
        for grade in ("good", "good"):
            r = await api.http.get("/api/review?node=tree")
            fronts.append(r.json()["due"][0]["prompt"])
            await api.http.post("/api/review/tree", json={"grade": grade, "kind": "flashcard"})
        assert fronts == ["New front", "Old front"]  # newest first, then the other
