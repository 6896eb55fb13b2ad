"""``GET /api/today`` over the production wiring: the empty state, a busy day in order (due
reviews, the open session at its next plan step, learn next, a misconception), with a model and
with none (learn next opens the note's Quiz me), an unknown query parameter refused, and where
an open session is continued (its step waiting, the next step not visited, none once done)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

from studyhall.adapters.fakes import FixedClock
from studyhall.server.app import build_services
from studyhall.server.config import load_config
from studyhall.server.runtime.learner.today import open_session as today_open_session

from tests.support.notes import importer, make_vault
from tests.support.session_api import PORT, scripted_app, write_script
from tests.support.today_history import CHAT, NOTE, open_session, seed_learning, seed_notes

NOW = datetime(2025, 6, 2, 12, 0, tzinfo=UTC)


def services(*, notes: bool = True, learning: bool = True, script=None):
    built = dataclasses.replace(build_services(load_config(port=PORT, script_path=script)),
                                clock=FixedClock(NOW))
    if notes:
        seed_notes(built, NOW)
    if learning:
        seed_learning(built, NOW)
    return built


async def test_nothing_imported_and_no_session_shows_import_and_ask() -> None:
    async with scripted_app(None, services=services(notes=False, learning=False)) as (api, _):
        response = await api.http.get("/api/today")
    assert response.status_code == 200
    body = response.json()
    assert body["state"] == "empty"
    assert [(s["kind"], s["action"]["href"]) for s in body["steps"]] == [
        ("import", "#/sources"), ("ask", "#/ask")]


async def test_a_busy_day_with_no_key_in_order_and_learn_next_opens_quiz_me() -> None:
    async with scripted_app(None, services=services()) as (api, _):
        body = (await api.http.get("/api/today")).json()
        refused = await api.http.get("/api/today?day=tomorrow")
    assert body["state"] == "busy"
    assert [s["kind"] for s in body["steps"]] == ["review", "session", "learn", "misconception"]
    review, session, learn, wrong = body["steps"]
    assert review["count"] == 2 and review["action"]["href"] == "#/review"
    assert session["chat_id"] == CHAT and (session["step"], session["of"]) == (2, 3)
    assert session["why"] == "Pick up at step 2 of 3: Breadth-first search."
    assert session["action"]["href"] == f"#/session/{CHAT}"
    assert learn["node_id"] == "paths" and learn["prerequisites"] == ["basics"]
    assert learn["action"] == {"label": "Quiz me on the note",
                               "href": f"#/sources/{NOTE}?quiz=1"}
    assert wrong["node_id"] == "mixup"
    assert wrong["action"]["href"] == f"#/sources/{NOTE}?quiz=1"
    assert refused.status_code == 400 and set(refused.json()) == {"error", "message"}


async def test_with_a_model_learn_next_starts_a_session_on_the_topic(tmp_path) -> None:
    script = write_script(tmp_path / "script.json", {"labeler": [{"text": "Graphs"}] * 5})
    async with scripted_app(script, services=services(script=script)) as (api, _):
        body = (await api.http.get("/api/today")).json()
    learn = next(s for s in body["steps"] if s["kind"] == "learn")
    assert learn["action"]["session"] == {
        "topic": "Shortest paths with Dijkstra's algorithm", "node_id": "paths"}
    assert learn["action"]["label"] == "Learn it in a session"


def test_a_session_whose_plan_is_all_visited_is_not_continued() -> None:
    found = today_open_session(open_session(NOW))
    assert found is not None and (found.phase, found.step, found.steps) == ("teach", 2, 3)
    assert found.next_step == "Breadth-first search"
    # B answered too: on to C, the first step not visited.
    on = today_open_session(open_session(NOW, answered=("A", "B"), waiting=None))
    assert on is not None and (on.step, on.next_step) == (3, "Dijkstra")
    # Every step quizzed and answered: finished, nothing to continue.
    assert today_open_session(open_session(NOW, answered=("A", "B", "C"), waiting=None)) is None
    # Before any plan: the warm-up, no step.
    early = today_open_session(open_session(NOW, planned=False))
    assert early is not None and (early.phase, early.step) == ("probe", None)


async def test_a_real_import_with_no_model_leads_to_a_note_with_quiz_me(tmp_path) -> None:
    vault = make_vault(tmp_path / "Vault", notes=6)
    data = tmp_path / "data"
    await importer(data).run(str(vault), embed=False)
    built = build_services(load_config(port=PORT, data_dir=data))
    async with scripted_app(None, services=built) as (api, _):
        body = (await api.http.get("/api/today")).json()
        learn = next(s for s in body["steps"] if s["kind"] == "learn")
        source_id = learn["action"]["href"].removeprefix("#/sources/").removesuffix("?quiz=1")
        opened = await api.http.get(f"/api/sources/{source_id}")
    # Imported, nothing studied: nothing due, no session, no import step — only learn next.
    assert (body["state"], [s["kind"] for s in body["steps"]]) == ("busy", ["learn"])
    assert learn["action"]["href"].startswith("#/sources/") and opened.status_code == 200
