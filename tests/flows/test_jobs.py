"""The workbench end to end over real HTTP (ASGI), with scripted models and no key: the teacher
starts jobs, keeps teaching, and each result comes back exactly once as a steer — also when
two finish during one turn, when the process dies between the steer's persist and the job's
flip, and when it dies with a job running. Abort stops a job and its model call for real."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from studyhall.adapters.store import JsonJobStore
from studyhall.core.contracts.jobs import Job
from studyhall.server.app import build_runtime, build_services
from studyhall.server.config import load_config
from studyhall.server.runtime.runtime import Runtime
from studyhall.server.web import build_app

from tests.support.chat_model import FunctionChatModel
from tests.support.jobs import (
    PROBE,
    RoleGate,
    artifact,
    job_call,
    session_script,
    settle,
    steers,
    wait_for,
    write,
)
from tests.support.session_api import PORT, parse_sse, scripted_app

RESEARCH = {"text": "Heaps are stored in arrays because a complete tree has no gaps."}
NOTES = {"json": {"title": "Heaps", "markdown": "# Heaps\n\nA heap is a complete binary tree "
                  "stored in an array; the parent of i is (i-1)//2."}}
# What the learner brings to the session: the writers' cards quote it (a card must quote the
# material it was given — here the session's own words — or it is dropped).
FACTS = ["A heap is a complete binary tree", "The parent of index i is at (i-1)//2",
         "Insert costs O(log n) time", "Extract-min costs O(log n) time",
         "The smallest key sits at the root", "Sift-up moves a new key toward the root",
         "Sift-down moves a key toward the leaves", "A heap is stored in an array",
         "Heapify builds a heap in linear time", "Heapsort sorts in O(n log n) time"]
LESSON = "Teach me heaps. What I read so far: " + ". ".join(FACTS) + "."
CARDS = {"json": {"title": "Heap cards", "cards": [
    {"front": "Where is the parent of index i?", "back": "At (i-1)//2.", "node_id": None,
     "evidence": FACTS[1]},
    {"front": "What shape is a heap?", "back": "A complete binary tree.", "node_id": None,
     "evidence": FACTS[0]},
    {"front": "Cost of insert?", "back": "O(log n) time.", "node_id": None,
     "evidence": FACTS[2]}]}}
CARDS10 = {"json": {"title": "Heap cards", "cards": [
    {"front": f"Heaps, point {n + 1}: recall it.", "back": fact + ".", "evidence": fact}
    for n, fact in enumerate(FACTS)]}}
PLAN = {"json": {"title": "Heaps in a week", "goal": "understand heaps", "steps": [
    {"title": "Arrays as trees", "detail": "Index arithmetic.", "minutes": 30},
    {"title": "Sift up and down", "detail": "Implement both.", "minutes": 45}]}}


async def start(api: Any, text: str = "Teach me heaps") -> str:
    chat_id = await api.new_chat("heaps")
    turn = await api.say(chat_id, text)
    assert turn.status == 200 and turn.last[0] == "finish", turn.events
    return chat_id


def jobs_of(runtime: Runtime, chat_id: str) -> list[Job]:
    return runtime.services.job_store.list(chat_id)


# --- each kind -----------------------------------------------------------------------------


@pytest.mark.parametrize("kind, args, roles, check", [
    ("research", {"question": "Why are heaps stored in arrays?"}, {"researcher": [RESEARCH]},
     lambda r: r["answer"].startswith("Heaps are stored in arrays")),
    ("notes", {"topic": "heaps"}, {"notes_writer": [NOTES]},
     lambda r: list(r["artifacts"]) == ["notes"] and r["failed"] == {}),
    ("flashcards", {"topic": "heaps", "count": 3}, {"flashcards_writer": [CARDS]},
     lambda r: len(r["artifacts"]["flashcards"]["cards"]) == 3),
    ("study_plan", {"goal": "understand heaps"}, {"study_planner": [PLAN]},
     lambda r: r["artifacts"]["study_plan"]["steps"][1]["title"] == "Sift up and down"),
    ("notes", {"topic": "heaps", "also": ["flashcards", "study_plan"]},
     {"notes_writer": [NOTES], "flashcards_writer": [CARDS10], "study_planner": [PLAN]},
     lambda r: list(r["artifacts"]) == ["notes", "flashcards", "study_plan"]
     and r["failed"] == {}),
])
async def test_a_job_is_acknowledged_at_once_and_its_result_arrives_as_one_steer(
        tmp_path: Path, kind: str, args: dict[str, Any], roles: dict[str, Any], check: Any) -> None:
    script = write(tmp_path / "s.json", session_script([job_call(kind, args, "c1")], **roles))
    async with scripted_app(script) as (api, runtime):
        chat_id = await api.new_chat("heaps")
        turn = await api.say(chat_id, LESSON)
        # the tool returned an acknowledgement in the turn, and the teacher kept teaching
        (result,) = [d for d in turn.of("tool-result") if d["name"] == kind]
        assert result["state"] == "output-available"
        assert result["output"]["status"] == "started"
        assert "Meanwhile: a heap" in turn.text()
        await settle(runtime)

        (job,) = jobs_of(runtime, chat_id)
        assert (job.kind, job.status, job.outcome) == (kind, "done", "done")
        assert check(job.result)
        chat = await api.chat(chat_id)
        (steer,) = steers(chat)
        assert steer["id"] == f"steer_{job.id}" and steer["role"] == "user"
        assert artifact(steer)["result"] == job.result
        # the steer woke the teacher, who answered it once
        tail = chat["messages"][-1]
        assert tail["role"] == "assistant"
        assert tail["parts"][0]["text"] == "Wake reply 1: the helpers are back."
        assert chat["messages"][-2]["id"] == steer["id"]
        # and the activity feed lists it among the recent runs
        feed = (await api.http.get("/api/activity")).json()
        (view,) = [v for v in feed["recent"] if v["run_id"] == job.id]
        assert (view["kind"], view["job_kind"], view["status"]) == ("job", kind, "done")
        assert view["usage"]["input_tokens"] > 0  # the scripted calls' tokens, summed
        assert view["usage"] == job.usage.model_dump()
        assert feed["running"] == [] and feed["summary"]["jobs"] == 0
        full = (await api.http.get(f"/api/jobs/{job.id}")).json()
        assert full["result"] == job.result


async def test_bad_job_arguments_go_back_to_the_teacher_and_start_nothing(tmp_path: Path) -> None:
    script = write(tmp_path / "s.json", session_script(
        [job_call("flashcards", {"topic": "heaps", "count": 900}, "c1")], wakes=0))
    async with scripted_app(script) as (api, runtime):
        chat_id = await api.new_chat("heaps")
        turn = await api.say(chat_id, "cards please")
        (result,) = [d for d in turn.of("tool-result") if d["name"] == "flashcards"]
        assert result["state"] == "output-error" and "whole number from 3 to 30" in result["error"]
        await settle(runtime)
        assert jobs_of(runtime, chat_id) == []


async def test_a_writer_that_fails_every_check_is_reported_as_an_error_not_delivered_as_fine(
        tmp_path: Path) -> None:
    bad = {"json": {"title": "Heaps", "markdown": "tiny"}}
    script = write(tmp_path / "s.json", session_script(
        [job_call("notes", {"topic": "heaps"}, "c1")], notes_writer=[bad] * 3))
    async with scripted_app(script) as (api, runtime):
        chat_id = await start(api)
        await settle(runtime)
        (job,) = jobs_of(runtime, chat_id)
        assert (job.status, job.attempts, job.result) == ("error", 3, None)
        assert "almost empty" in job.error
        (steer,) = steers(await api.chat(chat_id))
        assert artifact(steer)["status"] == "error" and artifact(steer)["result"] is None
        assert "failed" in steer["parts"][1]["text"]


# --- exactly once -----------------------------------------------------------------------------


async def test_two_jobs_finishing_during_one_turn_are_each_delivered_exactly_once(
        tmp_path: Path) -> None:
    calls = [job_call("research", {"question": "Why arrays?"}, "c1"),
             job_call("flashcards", {"topic": "heaps", "count": 3}, "c2")]
    script = write(tmp_path / "s.json", session_script(
        calls, researcher=[RESEARCH], flashcards_writer=[CARDS]))
    services = build_services(load_config(port=PORT, script_path=script))
    # the teacher's second step (after starting both jobs) waits until both have finished
    gated = RoleGate(services.chat_model, "teacher", skip=1)
    services = replace(services, chat_model=FunctionChatModel(gated))
    async with scripted_app(script, services=services) as (api, runtime):
        chat_id = await api.new_chat("heaps")
        turn = asyncio.create_task(api.say(chat_id, LESSON))
        await wait_for(lambda: len(jobs_of(runtime, chat_id)) == 2
                       and all(j.outcome == "done" for j in jobs_of(runtime, chat_id)))
        # finished while the turn runs: waiting for the next claim point, not flipped
        assert all(j.status == "running" for j in jobs_of(runtime, chat_id))
        feed = (await api.http.get("/api/activity")).json()
        assert sorted(v["status"] for v in feed["running"]) == ["delivering", "delivering"]
        assert steers(await api.chat(chat_id)) == []
        gated.gate.set()
        assert (await turn).last[0] == "finish"
        await settle(runtime)

        chat = await api.chat(chat_id)
        found = steers(chat)
        assert sorted(m["id"] for m in found) == sorted(
            f"steer_{j.id}" for j in jobs_of(runtime, chat_id))
        ids = [m["id"] for m in chat["messages"]]
        assert len(ids) == len(set(ids))
        # both rode in one wake turn: adjacent, then one teacher answer
        at = ids.index(found[0]["id"])
        assert ids[at + 1] == found[1]["id"]
        assert chat["messages"][at + 2]["role"] == "assistant"
        assert len(chat["messages"]) == at + 3
        assert [j.status for j in jobs_of(runtime, chat_id)] == ["done", "done"]


async def test_a_crash_between_the_steers_persist_and_the_flip_never_delivers_twice(
        tmp_path: Path) -> None:
    script = write(tmp_path / "s.json", session_script(
        [job_call("research", {"question": "Why arrays?"}, "c1")], wakes=2,
        researcher=[RESEARCH]))

    def crash(job: Job, status: str, error: str | None) -> None:
        raise RuntimeError("simulated crash right before the flip")

    async with scripted_app(script) as (api, runtime):
        runtime.workbench._jobs._settle = crash  # type: ignore[method-assign]  # the flip's one write
        chat_id = await start(api)
        await settle(runtime)
        (job,) = jobs_of(runtime, chat_id)
        assert (job.status, job.outcome) == ("running", "done")  # never flipped
        before = await api.chat(chat_id)
        assert len(steers(before)) == 1

    # a new process on the same data dir
    async with scripted_app(script) as (api, runtime):
        await settle(runtime)
        (job,) = jobs_of(runtime, chat_id)
        assert job.status == "done"
        after = await api.chat(chat_id)
        assert after["messages"] == before["messages"]  # not re-delivered, no extra wake


async def test_a_restart_with_a_job_running_reruns_it_and_delivers_it_once(tmp_path: Path) -> None:
    script = write(tmp_path / "s.json", session_script(
        [job_call("research", {"question": "Why arrays?"}, "c1")], researcher=[RESEARCH]))
    services = build_services(load_config(port=PORT, script_path=script))
    gated = RoleGate(services.chat_model, "researcher")
    first = build_runtime(replace(services, chat_model=FunctionChatModel(gated)))
    app = build_app(load_config(port=PORT, script_path=script), first)
    # The first process never shuts down cleanly: it "dies" with the researcher mid-call.
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                 base_url=f"http://127.0.0.1:{PORT}",
                                 headers={"Authorization": f"Bearer {app.state.config.token}"}) as c:
        chat_id = (await c.post("/api/chats", json={"topic": "heaps"})).json()["id"]
        r = await c.post(f"/api/chats/{chat_id}/messages", json={"text": "Teach me heaps"})
        assert parse_sse(r.text)[-1][0] == "finish"
        await gated.entered.wait()
    (job,) = JsonJobStore(first.services.config.data_dir / "jobs").list(chat_id)
    assert (job.status, job.outcome, job.restarts) == ("running", None, 0)

    async with scripted_app(script) as (api, runtime):
        await settle(runtime)
        (job,) = jobs_of(runtime, chat_id)
        assert (job.status, job.restarts) == ("done", 1)
        assert job.result["answer"].startswith("Heaps are stored")
        chat = await api.chat(chat_id)
        assert len(steers(chat)) == 1
        assert chat["messages"][-1]["parts"][0]["text"].startswith("Wake reply 1")
    await first.supervisor.aclose()  # the dead process's task: it finds the job settled
    (job,) = JsonJobStore(first.services.config.data_dir / "jobs").list(chat_id)
    assert job.status == "done"


async def test_a_job_interrupted_twice_is_failed_with_a_reason_and_that_is_delivered(
        tmp_path: Path) -> None:
    script = write(tmp_path / "s.json", session_script([], wakes=1))
    async with scripted_app(script) as (api, runtime):
        chat_id = await start(api)
        await settle(runtime)
        now = runtime.services.clock.now()
        runtime.services.job_store.save(Job(
            id="job_twice", chat_id=chat_id, kind="demo", status="running",
            input={"concept": "c", "brief": "b"}, restarts=1, created_at=now, updated_at=now))
    async with scripted_app(script) as (api, runtime):
        await settle(runtime)
        job = runtime.services.job_store.get("job_twice")
        assert job.status == "error" and "closed while this job was running" in job.error
        (steer,) = steers(await api.chat(chat_id))
        assert artifact(steer)["status"] == "error"


async def test_a_clean_shutdown_requeues_a_running_job_without_counting_a_crash(
        tmp_path: Path) -> None:
    script = write(tmp_path / "s.json", session_script(
        [job_call("research", {"question": "Why arrays?"}, "c1")], researcher=[RESEARCH]))
    services = build_services(load_config(port=PORT, script_path=script))
    gated = RoleGate(services.chat_model, "researcher")
    services = replace(services, chat_model=FunctionChatModel(gated))
    async with scripted_app(script, services=services) as (api, runtime):
        chat_id = await start(api)
        await gated.entered.wait()
    (job,) = jobs_of(runtime, chat_id)
    assert (job.status, job.restarts) == ("queued", 0) and gated.cancelled == 1
    async with scripted_app(script) as (api, runtime):
        await settle(runtime)
        (job,) = jobs_of(runtime, chat_id)
        assert (job.status, job.restarts) == ("done", 0)
        assert len(steers(await api.chat(chat_id))) == 1


# --- abort and the feed -----------------------------------------------------------------------


async def test_abort_cancels_the_job_and_its_model_call_and_nothing_is_delivered(
        tmp_path: Path) -> None:
    script = write(tmp_path / "s.json", session_script(
        [job_call("research", {"question": "Why arrays?"}, "c1")], researcher=[RESEARCH]))
    services = build_services(load_config(port=PORT, script_path=script))
    gated = RoleGate(services.chat_model, "researcher")
    services = replace(services, chat_model=FunctionChatModel(gated))
    async with scripted_app(script, services=services) as (api, runtime):
        chat_id = await start(api)
        await gated.entered.wait()
        (job,) = jobs_of(runtime, chat_id)
        feed = (await api.http.get("/api/activity")).json()
        assert [v["run_id"] for v in feed["running"]] == [job.id]
        assert feed["running"][0]["usage"] is None  # nothing reported yet: null, never 0

        r = await api.http.post("/api/activity/abort", json={"run_id": job.id})
        assert r.status_code == 200 and r.json() == {"run_id": job.id, "kind": "job",
                                                     "aborted": True}
        assert gated.cancelled == 1  # the model call in flight was cancelled
        await settle(runtime)
        (job,) = jobs_of(runtime, chat_id)
        assert job.status == "aborted" and job.outcome is None
        assert steers(await api.chat(chat_id)) == []
        again = await api.http.post("/api/activity/abort", json={"run_id": job.id})
        assert again.json()["aborted"] is False
        feed = (await api.http.get("/api/activity")).json()
        assert feed["recent"][0]["status"] == "aborted"


async def test_abort_refuses_unknown_ids_and_bad_bodies(tmp_path: Path) -> None:
    script = write(tmp_path / "s.json", session_script([], wakes=0))
    async with scripted_app(script) as (api, _):
        r = await api.http.post("/api/activity/abort", json={"run_id": "job_nope"})
        assert r.status_code == 404 and "job_nope" in r.json()["message"]
        for body in ({}, {"run_id": ""}, {"run_id": "../etc"}, [1]):
            r = await api.http.post("/api/activity/abort", json=body)
            assert r.status_code == 400, body
        r = await api.http.post("/api/activity/abort", content=b"{nope")
        assert r.status_code == 400
        assert (await api.http.get("/api/jobs/job_nope")).status_code == 404


async def test_the_activity_stream_sends_the_feed_as_server_sent_events(tmp_path: Path) -> None:
    script = write(tmp_path / "s.json", session_script(
        [job_call("research", {"question": "Why arrays?"}, "c1")], researcher=[RESEARCH]))
    async with scripted_app(script) as (api, runtime):
        chat_id = await start(api)
        await settle(runtime)
        r = await api.http.get("/api/activity/stream", params={"limit": 1})
        assert r.headers["content-type"].startswith("text/event-stream")
        ((name, data),) = parse_sse(r.text)
        assert name == "activity" and data["recent"][0]["chat_id"] == chat_id
        assert (await api.http.get("/api/activity/stream",
                                   params={"limit": "x"})).status_code == 400
        assert json.loads(json.dumps(data)) == (await api.http.get("/api/activity")).json()


async def test_a_result_waits_while_a_question_is_open_and_rides_in_the_answers_turn(
        tmp_path: Path) -> None:
    quiz = {"questions": [{"prompt": "Is a heap complete?", "choices": ["yes", "no"],
                           "correct": [0]}]}
    script = write(tmp_path / "s.json", {
        "prober": [{"tool_calls": [{"name": "probe_done", "id": "probe", "arguments": {
            "floor": "arrays", "ceiling": "trees", "goal": "heaps", "summary": "keen"}}]}],
        "teacher": [
            {"text": "A quick check while the researcher works.", "tool_calls": [
                job_call("research", {"question": "Why arrays?"}, "c1"),
                {"name": "quiz", "arguments": quiz, "id": "q1"}]},
            {"text": "Right. And the research says: no gaps."},
        ],
        "researcher": [RESEARCH], "labeler": [{"text": "Heaps"}] * 3})
    async with scripted_app(script) as (api, runtime):
        chat_id = await start(api)
        await settle(runtime)
        (job,) = jobs_of(runtime, chat_id)
        assert (job.status, job.outcome) == ("running", "done")  # delivering: no wake turn
        chat = await api.chat(chat_id)
        assert steers(chat) == [] and [p["tool_call_id"] for p in chat["pending"]] == ["q1"]

        shown = chat["pending"][0]["presented"]["questions"][0]["choices"]
        turn = await api.answer(chat_id, "q1", {"choices": [[shown.index("yes")]]})
        assert "steer" in turn.names()
        await settle(runtime)
        chat = await api.chat(chat_id)
        (steer,) = steers(chat)
        ids = [m["id"] for m in chat["messages"]]
        assert ids.index(steer["id"]) == len(ids) - 2  # claimed by the answer's turn
        assert chat["messages"][-1]["parts"][0]["text"].startswith("Right. And the research")
        assert jobs_of(runtime, chat_id)[0].status == "done"


async def test_no_more_than_four_jobs_run_at_once_for_a_session(tmp_path: Path) -> None:
    calls = [job_call("research", {"question": f"Question {n}?"}, f"c{n}") for n in range(5)]
    script = write(tmp_path / "s.json", session_script(calls, wakes=4, researcher=[RESEARCH] * 4))
    services = build_services(load_config(port=PORT, script_path=script))
    gated = RoleGate(services.chat_model, "researcher")
    services = replace(services, chat_model=FunctionChatModel(gated))
    async with scripted_app(script, services=services) as (api, runtime):
        chat_id = await api.new_chat("heaps")
        turn = await api.say(chat_id, "Teach me heaps")
        results = {d["tool_call_id"]: d for d in turn.of("tool-result") if d["name"] == "research"}
        assert [results[f"c{n}"]["state"] for n in range(5)] == ["output-available"] * 4 + [
            "output-error"]
        assert "already working" in results["c4"]["error"]
        assert len(jobs_of(runtime, chat_id)) == 4
        gated.gate.set()
        await settle(runtime)
        assert len(steers(await api.chat(chat_id))) == 4


async def test_a_kill_during_the_wake_turn_flips_on_restart_and_the_teacher_still_answers(
        tmp_path: Path) -> None:
    script = write(tmp_path / "s.json", session_script(
        [job_call("research", {"question": "Why arrays?"}, "c1")], researcher=[RESEARCH]))
    services = build_services(load_config(port=PORT, script_path=script))
    gated = RoleGate(services.chat_model, "teacher", skip=2)  # the wake turn's call hangs
    first = build_runtime(replace(services, chat_model=FunctionChatModel(gated)))
    app = build_app(load_config(port=PORT, script_path=script), first)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                 base_url=f"http://127.0.0.1:{PORT}",
                                 headers={"Authorization": f"Bearer {app.state.config.token}"}) as c:
        chat_id = (await c.post("/api/chats", json={"topic": "heaps"})).json()["id"]
        await c.post(f"/api/chats/{chat_id}/messages", json={"text": "Teach me heaps"})
        await gated.entered.wait()  # the steer is persisted and the wake turn is in its call
    record = first.services.chat_store.get(chat_id)
    assert record.messages[-1].id.startswith("steer_job_")
    (job,) = first.services.job_store.list(chat_id)
    assert (job.status, job.outcome) == ("running", "done")

    async with scripted_app(script) as (api, runtime):  # the restart
        await settle(runtime)
        (job,) = jobs_of(runtime, chat_id)
        assert job.status == "done"
        chat = await api.chat(chat_id)
        assert len(steers(chat)) == 1
        assert chat["messages"][-1]["parts"][0]["text"] == "Wake reply 1: the helpers are back."
    await first.supervisor.aclose()  # the dead process's hung turn; it writes nothing
    assert len(steers({"messages": [m.model_dump(mode="json") for m in
                                    first.services.chat_store.get(chat_id).messages]})) == 1


async def test_a_turn_in_a_session_with_no_job_ends_without_reading_the_job_folder(
        tmp_path: Path) -> None:
    # The runner is the only writer of jobs/, so it knows which chats hold an unsettled job: a
    # turn elsewhere does not list every job file there is (they pile up over months).
    roles = session_script([job_call("notes", {"topic": "heaps"}, "c1")], notes_writer=[NOTES])
    roles["prober"] = [PROBE, PROBE]
    roles["teacher"] += [{"text": "A heap keeps its smallest key on top."},
                         {"text": "Sift-down swaps a key with its smaller child."}]
    script = write(tmp_path / "s.json", roles)
    async with scripted_app(script) as (api, runtime):
        busy = await start(api, LESSON)  # starts a job; its result is delivered and settled
        await settle(runtime)
        (job,) = jobs_of(runtime, busy)
        assert job.status == "done"
        store = runtime.services.job_store
        listed: list[str | None] = []
        real_list = store.list

        def counting(chat_id: str | None = None) -> list[Job]:
            listed.append(chat_id)
            return real_list(chat_id)

        store.list = counting  # type: ignore[method-assign]
        quiet = await api.new_chat("heaps")
        turn = await api.say(quiet, "Teach me heaps")
        assert turn.status == 200 and turn.last[0] == "finish", turn.events
        await settle(runtime)
        assert listed == []
        # and the settled chat, once reconciled to nothing, is not listed on its next turn
        turn = await api.say(busy, "And sift-down?")
        assert "Sift-down swaps" in turn.text()
        await settle(runtime)
        assert listed == []
