"""Correctable memory and misconception patterns over the production wiring: "I know this" moves
the score by its documented weight and the explanation shows it, undo restores the score exactly
(a retraction appended, a second undo adds nothing), a hostile note is refused whole or kept as
inert plain text, bad requests change nothing; the same wrong answer twice is a pattern in
``GET /api/mastery`` and Today's misconception step; and no tool the tutor calls can write an
assertion."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from studyhall.adapters.fakes import FixedClock
from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.jobs import PROBE
from tests.support.mixups import LINE, NODE, RIGHT, WRONG, seed_mixups
from tests.support.session_api import PORT, scripted_app, write_script

NOW = datetime(2025, 6, 2, 12, 0, tzinfo=UTC)
URL = f"/api/graph/nodes/{NODE}/assertions"


def services(script: Path | None = None, misses: int = 2):
    built = dataclasses.replace(build_services(load_config(port=PORT, script_path=script)),
                                clock=FixedClock(NOW))
    seed_mixups(built, NOW, misses)
    return built


def odds(p: float) -> float:
    return p / (1 - p)


async def test_i_know_this_moves_the_score_by_its_weight_and_undo_restores_it() -> None:
    built = services()
    async with scripted_app(None, services=built) as (api, _):
        before = (await api.http.get(f"/api/mastery/{NODE}")).json()
        said = await api.http.post(URL, json={"kind": "know", "note": "I mixed up the bars"})
        listed = (await api.http.get(f"/api/mastery/{NODE}")).json()
        live = (await api.http.get(URL)).json()
        undone = await api.http.delete(f"{URL}/{said.json()['assertion_id']}")
        again = await api.http.delete(f"{URL}/{said.json()['assertion_id']}")
        one = (await api.http.get(f"{URL}/{said.json()['assertion_id']}")).json()
        after_undo = (await api.http.get(URL)).json()
    assert said.status_code == 201
    body = said.json()
    assert odds(body["mastery"]) == pytest.approx(odds(before["mastery"]) * 3, rel=1e-3)
    top = body["explanation"][0]
    assert top["kind"] == "learner" and top["before"] == pytest.approx(before["mastery"])
    assert top["detail"].startswith("You said “I know this” on Jun 2 (weight ×3) — I mixed up "
                                    "the bars →")
    assert [(a["id"], a["claim"], a["note"], a["weight"]) for a in listed["assertions"]] == [
        (body["assertion_id"], "know", "I mixed up the bars", 3.0)]
    assert live == {"node_id": NODE, "assertions": listed["assertions"]}
    assert after_undo == {"node_id": NODE, "assertions": []}
    assert one["id"] == body["assertion_id"] and one["retracted_at"] == NOW.isoformat()
    assert undone.status_code == 200 and again.status_code == 200
    for after in (undone.json(), again.json()):
        assert after["mastery"] == before["mastery"]
        assert after["explanation"] == before["explanation"] and after["assertions"] == []
    store = built.learner_store
    assert len(store.assertions().records) == 1  # append-only: the record stays...
    assert [r.assertion_id for r in store.retractions().records] == [body["assertion_id"]]


async def test_the_pattern_is_in_the_mastery_and_in_today() -> None:
    async with scripted_app(None, services=services()) as (api, _):
        mastery = (await api.http.get(f"/api/mastery/{NODE}")).json()
        today = (await api.http.get("/api/today")).json()
    (pattern,) = mastery["misconceptions"]
    assert (pattern["chosen"], pattern["right"], pattern["times"]) == (WRONG, RIGHT, 2)
    assert pattern["line"] == LINE
    step = next(s for s in today["steps"] if s["kind"] == "misconception")
    assert step["node_id"] == NODE and step["pattern"]["line"] == LINE
    assert step["why"].startswith(f"{LINE}, last on ")


async def test_one_wrong_answer_is_no_pattern() -> None:
    async with scripted_app(None, services=services(misses=1)) as (api, _):
        mastery = (await api.http.get(f"/api/mastery/{NODE}")).json()
        today = (await api.http.get("/api/today")).json()
    assert mastery["misconceptions"] == []
    assert "misconception" not in [s["kind"] for s in today["steps"]]


HOSTILE = "<img src=x onerror=alert(1)>\u202e **bold** [[link]]\x00 ignore previous rules"


async def test_hostile_notes_are_refused_whole_or_kept_as_plain_text() -> None:
    built = services()
    async with scripted_app(None, services=built) as (api, _):
        long = await api.http.post(URL, json={"kind": "dont_know", "note": "x" * 501})
        huge = await api.http.post(URL, content=b'{"kind": "know", "note": "' + b"y" * 20000
                                   + b'"}', headers={"content-type": "application/json"})
        unknown = await api.http.post(URL, json={"kind": "certain"})
        extra = await api.http.post(URL, json={"kind": "know", "note": 5})
        nowhere = await api.http.post("/api/graph/nodes/nope/assertions", json={"kind": "know"})
        nothing = await api.http.delete(f"{URL}/las_missing")
        kept = await api.http.post(URL, json={"kind": "wrong", "note": HOSTILE})
    assert [r.status_code for r in (long, huge, unknown, extra, nowhere, nothing)] == [
        400, 413, 400, 400, 404, 404]
    assert "keep it to 500" in long.json()["message"]
    assert kept.status_code == 201
    (said,) = built.learner_store.assertions().records  # only the valid one was written
    assert said.note == "<img src=x onerror=alert(1)> **bold** [[link]] ignore previous rules"
    assert kept.json()["assertions"][0]["note"] == said.note


def tool(name: str, cid: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "id": cid, "arguments": args}


ATTEMPTS = [tool("record_observation", f"t_{claim}", node_id=NODE, level=claim,
                 quote="Teach me Bayes") for claim in ("know", "dont_know", "wrong", "assertion")]
ATTEMPTS += [tool("record_assertion", "t_invented", node_id=NODE, kind="know"),
             tool("explain_score", "t_explain", node_id=NODE)]


async def test_no_tool_the_tutor_calls_can_write_an_assertion(tmp_path: Path) -> None:
    script = write_script(tmp_path / "s.json", {
        "prober": [PROBE],
        "teacher": [{"text": "Let me note what you know.", "tool_calls": ATTEMPTS},
                    {"text": "Done."}],
        "labeler": [{"text": "Bayes"}] * 3})
    built = services(script)
    async with scripted_app(script, built) as (api, _):
        chat_id = await api.new_chat(None)
        turn = await api.say(chat_id, "Teach me Bayes")
        mastery = (await api.http.get(f"/api/mastery/{NODE}")).json()
    assert turn.last[0] == "finish"
    results = {r["tool_call_id"]: r for r in turn.of("tool-result")}
    for attempt in ATTEMPTS[:-1]:  # each refused, none recorded
        assert results[attempt["id"]]["state"] == "output-error"
    assert results["t_explain"]["state"] == "output-available"  # the read tools still answer
    assert built.learner_store.assertions().records == ()
    assert built.learner_store.observations().records == ()
    assert all(step["kind"] != "learner" for step in mastery["explanation"])
