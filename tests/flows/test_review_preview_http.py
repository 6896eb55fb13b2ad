"""What the review screen needs before a grade, over real HTTP: the due date each grade would give
(equal to what grading then gives, and to the ``fsrs`` package's own answer), when the next card
after today is due, a node's card for "Review now", and the review caps in the settings."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import fsrs
from studyhall.adapters.fakes import FixedClock
from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.graph_events import cp, edge, prop, quiz
from tests.support.session_api import PORT, scripted_app

NOON = datetime(2025, 3, 3, 12, 0, tzinfo=UTC)


def seeded():
    services = build_services(load_config(port=PORT))
    graph = services.graph_store
    graph.append_propositions([prop("tree", text="A tree is a connected graph without cycles."),
                               prop("heap", text="A heap is a complete binary tree."),
                               prop("imported", text="Only in the notes, never studied.")])
    graph.append_edges([edge("tree", "heap")])
    graph.append_quiz_events([quiz("tree", "correct", 1), quiz("heap", "miss", 2, call="c2")])
    graph.append_checkpoint(cp("r1"))
    clock = FixedClock(NOON)
    return dataclasses.replace(services, clock=clock), clock


async def test_each_card_says_when_each_grade_would_bring_it_back() -> None:
    services, clock = seeded()
    async with scripted_app(None, services=services) as (api, _):
        first = (await api.http.get("/api/review")).json()["due"][0]
        assert first["node_id"] == "tree" and set(first["next"]) == {"again", "hard", "good",
                                                                     "easy"}
        due = {g: datetime.fromisoformat(at) for g, at in first["next"].items()}
        assert due["again"] < due["hard"] < due["good"] < due["easy"]
        scheduler = fsrs.Scheduler(enable_fuzzing=False)
        for grade in ("again", "hard", "good", "easy"):  # a new card graded now, by the package
            card, _ = scheduler.review_card(fsrs.Card(card_id=1, due=NOON),
                                            fsrs.Rating[grade.capitalize()], NOON)
            assert due[grade] == card.due

        # A card with a history: the preview is what the grade then records.
        await api.http.post("/api/review/tree", json={"grade": "good"})
        clock.advance(days=2)
        queue = (await api.http.get("/api/review")).json()
        tree = next(d for d in queue["due"] if d["node_id"] == "tree")
        preview = tree["next"]["hard"]
        graded = (await api.http.post("/api/review/tree", json={"grade": "hard"})).json()
        assert graded["due_at"] == preview


async def test_next_due_after_today_and_review_now() -> None:
    services, _ = seeded()
    async with scripted_app(None, services=services) as (api, _):
        for node in ("tree", "heap"):
            await api.http.post("/api/review/" + node, json={"grade": "easy"})
        queue = (await api.http.get("/api/review")).json()
        assert queue["due"] == [] and queue["counts"]["due_today"] == 0
        cards = [(await api.http.get(f"/api/mastery/{n}")).json()["due_at"]
                 for n in ("tree", "heap")]
        assert datetime.fromisoformat(queue["next_due_at"]) == min(
            datetime.fromisoformat(c) for c in cards)
        assert datetime.fromisoformat(queue["next_due_at"]) > NOON + timedelta(days=1)

        # "Review now" on a node that is not due, even one never studied.
        for node in ("heap", "imported"):
            one = (await api.http.get(f"/api/review?node={node}")).json()
            assert [d["node_id"] for d in one["due"]] == [node]
            assert one["due"][0]["prompt"] and set(one["due"][0]["next"]) == {
                "again", "hard", "good", "easy"}
        assert one["due"][0]["queue"] == "new" and one["due"][0]["retrievability"] is None
        graded = (await api.http.post("/api/review/imported", json={"grade": "good"})).json()
        assert graded["due_at"] == one["due"][0]["next"]["good"]
        assert (await api.http.get("/api/review?node=nowhere")).status_code == 404


async def test_a_new_card_over_the_cap_waits_for_tomorrow() -> None:
    services, _ = seeded()
    async with scripted_app(None, services=services) as (api, _):
        r = await api.http.put("/api/settings/review", json={"new_cards_per_day": 1})
        assert r.json()["review"]["new_cards_per_day"] == 1
        queue = (await api.http.get("/api/review")).json()
        assert [d["node_id"] for d in queue["due"]] == ["tree"]
        local = NOON.astimezone()  # days are learner days: local time, from 4:00 (Anki's)
        tomorrow = local.replace(hour=4, minute=0, second=0) + timedelta(days=1)
        assert datetime.fromisoformat(queue["next_due_at"]) == tomorrow
        await api.http.put("/api/settings/review", json={"new_cards_per_day": 0})
        assert (await api.http.get("/api/review")).json()["next_due_at"] is None  # none waits


async def test_review_caps_are_validated_then_saved() -> None:
    services, _ = seeded()
    async with scripted_app(None, services=services) as (api, _):
        view = (await api.http.get("/api/settings")).json()
        assert view["review"] == {"new_cards_per_day": 20, "reviews_per_day": 200,
                                  "desired_retention": 0.9, "day_starts_hour": 4, "decks": {}}
        for bad in ({"new_cards_per_day": -1}, {"reviews_per_day": 0},
                    {"desired_retention": 0.99}, {"new_cards_per_day": 2.5},
                    {"reviews_per_day": "many"}, {"new_cards_per_day": True},
                    {"day_starts_hour": 24}, {"day_starts_hour": 4.5}):
            r = await api.http.put("/api/settings/review", json=bad)
            assert r.status_code == 400, bad
            assert "reviews per day from 1 to 10000" in r.json()["message"]
        assert (await api.http.get("/api/settings")).json()["review"]["reviews_per_day"] == 200
        r = await api.http.put("/api/settings/review", json={"reviews_per_day": 50,
                                                             "desired_retention": 0.85})
        assert r.status_code == 200
        assert r.json()["review"] == {"new_cards_per_day": 20, "reviews_per_day": 50,
                                      "desired_retention": 0.85, "day_starts_hour": 4,
                                      "decks": {}}
        stats = (await api.http.get("/api/stats")).json()
        assert stats["retention"]["target"] == 0.85  # the scheduler reads the saved target


async def test_a_grade_builds_the_learner_model_once(monkeypatch) -> None:
    from studyhall.server.runtime.learner import ledgers as review_module

    built = []
    real = review_module.LearnerModel

    def counting(*args, **kwargs):
        built.append(1)
        return real(*args, **kwargs)

    services, _ = seeded()
    async with scripted_app(None, services=services) as (api, _):
        monkeypatch.setattr(review_module, "LearnerModel", counting)
        answer = await api.http.post("/api/review/tree", json={"grade": "good"})
        assert answer.status_code == 200, answer.text
        assert len(built) == 1
        built.clear()
        assert (await api.http.post("/api/review/nope", json={"grade": "good"})).status_code == 404
        assert built == []  # an unknown node is refused before any model is built


async def test_a_grade_folds_the_graph_and_the_learner_ledgers_once(monkeypatch) -> None:
    # Wider than the spy above: a model built by any module, each graph read, each grade-ledger
    # read — one of each for a grade, whoever would build them.
    from studyhall.core.library.learner.model import LearnerModel
    from studyhall.server.runtime.library.graph_reader import GraphReader

    counts = {"model": 0, "graph": 0, "grades": 0}

    def counting(name, real):
        def spy(*args, **kwargs):
            counts[name] += 1
            return real(*args, **kwargs)
        return spy

    services, _ = seeded()
    async with scripted_app(None, services=services) as (api, _):
        await api.http.get("/api/review")  # warm: the graph read and the term weights exist
        monkeypatch.setattr(LearnerModel, "__init__", counting("model", LearnerModel.__init__))
        monkeypatch.setattr(GraphReader, "snapshot", counting("graph", GraphReader.snapshot))
        store = services.learner_store
        monkeypatch.setattr(store, "grades", counting("grades", store.grades))
        answer = await api.http.post("/api/review/heap", json={"grade": "again"})
        assert answer.status_code == 200, answer.text
        assert counts == {"model": 1, "graph": 1, "grades": 1}
