"""Artifacts from any scope over real HTTP (ASGI) with scripted writers: several kinds run as
parallel background jobs with no session (terminal at once, in the activity feed with tokens),
each kept once in the artifact store; flashcards join the review queue and leave it on delete;
Stop aborts a job mid-call; a kill mid-job or between finishing and keeping still keeps the
artifact exactly once; session jobs of an artifact kind are kept too."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from studyhall.adapters.store import JsonlArtifactStore
from studyhall.core.contracts.jobs import Job
from studyhall.server.app import build_runtime, build_services
from studyhall.server.config import load_config
from studyhall.server.runtime.runtime import Runtime
from studyhall.server.runtime.workbench.artifacts import ArtifactDesk
from studyhall.server.web import build_app

from tests.support.artifact_graph import NOTES_ANSWER, cards_answer, seed_heap_graph
from tests.support.chat_model import FunctionChatModel
from tests.support.jobs import RoleGate, job_call, session_script, settle, write
from tests.support.session_api import PORT, scripted_app

TOPIC = {"type": "topic", "id": "n_heap"}
PLAN = {"json": {"title": "Heaps in a week", "goal": "understand heaps", "steps": [
    {"title": "Arrays as trees", "detail": "Index arithmetic.", "minutes": 30}]}}


def script(tmp_path: Path, **roles: Any) -> Path:
    return write(tmp_path / "s.json", {"labeler": [{"text": "Heaps"}] * 3, **roles})


async def make(api: Any, kinds: list[str], scope: dict[str, Any] = TOPIC,
               **extra: Any) -> httpx.Response:
    return await api.http.post("/api/artifacts", json={"kinds": kinds, "scope": scope, **extra})


def kept_lines(runtime: Runtime) -> int:
    path = runtime.services.config.data_dir / "artifacts" / "kept.jsonl"
    return len(path.read_bytes().splitlines()) if path.exists() else 0


def queued_cards(runtime: Runtime, artifact: str) -> int:
    learner = runtime.services.learner_store
    retired = {r.artifact_id for r in learner.retirements().records}
    return sum(1 for c in learner.flashcards().records
               if c.artifact_id == artifact and artifact not in retired)


async def test_two_kinds_run_as_parallel_jobs_and_each_is_kept_once(tmp_path: Path) -> None:
    s = script(tmp_path, notes_writer=[NOTES_ANSWER], flashcards_writer=[cards_answer()])
    async with scripted_app(s) as (api, runtime):
        seed_heap_graph(runtime.services.graph_store)
        r = await make(api, ["flashcards", "notes"], brief="stress sift-down", count=3)
        assert r.status_code == 202, r.text
        started = r.json()["jobs"]
        assert [j["kind"] for j in started] == ["notes", "flashcards"]
        await settle(runtime)

        jobs = {j["job_id"]: runtime.services.job_store.get(j["job_id"]) for j in started}
        assert all(j.chat_id is None and j.status == "done" for j in jobs.values())
        feed = (await api.http.get("/api/activity")).json()
        views = {v["run_id"]: v for v in feed["recent"] if v["run_id"] in jobs}
        assert sorted(v["status"] for v in views.values()) == ["done", "done"]
        assert all(v["chat_id"] is None and v["usage"]["input_tokens"] > 0
                   for v in views.values())
        assert all(v["label"].endswith("Heaps") for v in views.values())  # the scope's label

        listed = (await api.http.get("/api/artifacts")).json()["artifacts"]
        assert sorted(a["kind"] for a in listed) == ["flashcards", "notes"]
        cards = next(a for a in listed if a["kind"] == "flashcards")
        assert cards["scope"] == {"type": "topic", "id": "n_heap", "node_ids": [],
                                  "label": "Heaps"}
        assert cards["chat_id"] is None and cards["job_id"] in jobs
        assert cards["title"] == "Heap cards"
        assert cards["counts"] == {"cards": 2, "dropped": 1}  # the unbacked card was dropped
        full = (await api.http.get(f"/api/artifacts/{cards['id']}")).json()
        assert [c["node_id"] for c in full["content"]["cards"]] == ["n_sift", "n_heap"]
        assert "sift-down" in full["markdown"].lower()
        assert queued_cards(runtime, cards["id"]) == 2  # in the review queue, on their nodes
        assert kept_lines(runtime) == 2


async def test_delete_hides_the_artifact_and_retires_its_cards(tmp_path: Path) -> None:
    s = script(tmp_path, flashcards_writer=[cards_answer()])
    async with scripted_app(s) as (api, runtime):
        seed_heap_graph(runtime.services.graph_store)
        assert (await make(api, ["flashcards"], count=3)).status_code == 202
        await settle(runtime)
        (item,) = (await api.http.get("/api/artifacts")).json()["artifacts"]
        assert queued_cards(runtime, item["id"]) == 2

        r = await api.http.delete(f"/api/artifacts/{item['id']}")
        assert r.status_code == 204
        assert (await api.http.get("/api/artifacts")).json() == {"artifacts": []}
        gone = await api.http.get(f"/api/artifacts/{item['id']}")
        assert gone.status_code == 404 and gone.json()["error"] == "NotFound"
        assert queued_cards(runtime, item["id"]) == 0
        again = await api.http.delete(f"/api/artifacts/{item['id']}")
        assert again.status_code == 404


async def test_refusals_say_what_to_do(tmp_path: Path) -> None:
    s = script(tmp_path)
    async with scripted_app(s) as (api, runtime):
        empty = await make(api, ["notes"], {"type": "graph"})
        assert empty.status_code == 422
        assert empty.json()["error"] == "EmptyScope"
        assert "study in a session or import notes first" in empty.json()["message"]
        seed_heap_graph(runtime.services.graph_store)
        for body, status, says in [
            ({"kinds": ["research"], "scope": TOPIC}, 400, "kinds.0"),
            ({"kinds": [], "scope": TOPIC}, 400, "kinds"),
            ({"kinds": ["notes"], "scope": {"type": "topic"}}, 400, "scope.topic.id"),
            ({"kinds": ["notes"], "scope": {"type": "selection", "node_ids": []}}, 400,
             "node_ids"),
            ({"kinds": ["flashcards"], "scope": TOPIC, "count": 900}, 400, "count"),
            ({"kinds": ["notes"], "scope": {"type": "topic", "id": "n_nope"}}, 404, "n_nope"),
        ]:
            r = await api.http.post("/api/artifacts", json=body)
            assert r.status_code == status, (body, r.text)
            assert says in r.json()["message"], r.json()
        assert runtime.services.job_store.list() == []  # nothing started
        assert (await api.http.get("/api/artifacts/art_nope")).status_code == 404

    async with scripted_app(None) as (api, runtime):  # no script, no key: no model
        seed_heap_graph(runtime.services.graph_store)
        r = await make(api, ["notes"])
        assert r.status_code == 409 and r.json()["error"] == "Conflict"


async def test_stop_aborts_a_job_mid_call_and_keeps_nothing(tmp_path: Path) -> None:
    s = script(tmp_path, notes_writer=[NOTES_ANSWER], flashcards_writer=[cards_answer()])
    services = build_services(load_config(port=PORT, script_path=s))
    gated = RoleGate(services.chat_model, "notes_writer")
    services = replace(services, chat_model=FunctionChatModel(gated))
    async with scripted_app(s, services=services) as (api, runtime):
        seed_heap_graph(runtime.services.graph_store)
        jobs = {j["kind"]: j["job_id"]
                for j in (await make(api, ["notes", "flashcards"], count=3)).json()["jobs"]}
        await gated.entered.wait()
        r = await api.http.post("/api/activity/abort", json={"run_id": jobs["notes"]})
        assert r.json() == {"run_id": jobs["notes"], "kind": "job", "aborted": True}
        assert gated.cancelled == 1
        await settle(runtime)
        assert runtime.services.job_store.get(jobs["notes"]).status == "aborted"
        assert runtime.services.job_store.get(jobs["flashcards"]).status == "done"
        listed = (await api.http.get("/api/artifacts")).json()["artifacts"]
        assert [a["kind"] for a in listed] == ["flashcards"]  # the other kind still ran


async def test_a_kill_mid_job_reruns_it_and_keeps_the_artifact_exactly_once(
        tmp_path: Path) -> None:
    s = script(tmp_path, flashcards_writer=[cards_answer()])
    services = build_services(load_config(port=PORT, script_path=s))
    gated = RoleGate(services.chat_model, "flashcards_writer")
    first = build_runtime(replace(services, chat_model=FunctionChatModel(gated)))
    app = build_app(load_config(port=PORT, script_path=s), first)
    # The first process never shuts down cleanly: it "dies" with the writer mid-call.
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                 base_url=f"http://127.0.0.1:{PORT}",
                                 headers={"Authorization": f"Bearer {app.state.config.token}"}) as c:
        seed_heap_graph(first.services.graph_store)
        r = await c.post("/api/artifacts", json={"kinds": ["flashcards"], "scope": TOPIC,
                                                 "count": 3})
        (job,) = r.json()["jobs"]
        await gated.entered.wait()
    assert first.services.job_store.get(job["job_id"]).status == "running"

    for _ in range(2):  # the restart re-runs it; a second restart changes nothing
        async with scripted_app(s) as (api, runtime):
            await settle(runtime)
            done = runtime.services.job_store.get(job["job_id"])
            assert (done.status, done.restarts) == ("done", 1)
            (item,) = (await api.http.get("/api/artifacts")).json()["artifacts"]
            assert item["job_id"] == job["job_id"]
            assert kept_lines(runtime) == 1
    await first.supervisor.aclose()  # the dead process's task: it finds the job settled
    assert len(JsonlArtifactStore(first.services.config.data_dir / "artifacts")
               .kept().records) == 1


async def test_a_crash_between_finishing_and_keeping_is_caught_up_at_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = script(tmp_path, notes_writer=[NOTES_ANSWER])

    async def dies_first(desk: ArtifactDesk, finished: object) -> None:
        return None  # the process "dies" before the keep

    with monkeypatch.context() as m:
        m.setattr(ArtifactDesk, "job_finished", dies_first)  # the workbench forwards to it
        async with scripted_app(s) as (api, runtime):
            seed_heap_graph(runtime.services.graph_store)
            (job,) = (await make(api, ["notes"])).json()["jobs"]
            await settle(runtime)
            assert runtime.services.job_store.get(job["job_id"]).status == "done"
            assert (await api.http.get("/api/artifacts")).json()["artifacts"] == []
    for _ in range(2):
        async with scripted_app(s) as (api, runtime):
            await settle(runtime)
            (item,) = (await api.http.get("/api/artifacts")).json()["artifacts"]
            assert (item["job_id"], item["kind"]) == (job["job_id"], "notes")
            assert kept_lines(runtime) == 1


async def test_a_session_job_of_an_artifact_kind_is_kept_with_its_session(
        tmp_path: Path) -> None:
    s = write(tmp_path / "s.json", session_script(
        [job_call("notes", {"topic": "heaps", "also": ["study_plan"]}, "c1")],
        notes_writer=[NOTES_ANSWER], study_planner=[PLAN]))
    async with scripted_app(s) as (api, runtime):
        seed_heap_graph(runtime.services.graph_store)
        chat_id = await api.new_chat("heaps")
        assert (await api.say(chat_id, "Teach me heaps")).last[0] == "finish"
        await settle(runtime)
        listed = (await api.http.get("/api/artifacts")).json()["artifacts"]
        assert sorted(a["kind"] for a in listed) == ["notes", "study_plan"]
        assert {a["chat_id"] for a in listed} == {chat_id}
        assert all(a["scope"]["type"] == "session" and a["scope"]["id"] == chat_id
                   for a in listed)
        assert all(a["scope"]["label"].lower() == "heaps" for a in listed)  # the session's topic


async def test_a_scope_job_interrupted_twice_is_failed_at_once_with_nothing_to_deliver(
        tmp_path: Path) -> None:
    s = script(tmp_path)
    async with scripted_app(s) as (api, runtime):
        now = runtime.services.clock.now()
        runtime.services.job_store.save(Job(
            id="job_twice", chat_id=None, kind="notes", status="running",
            input={"scope": {"type": "graph"}, "topic": "The whole graph"}, restarts=1,
            created_at=now, updated_at=now))
    async with scripted_app(s) as (api, runtime):
        await settle(runtime)
        job = runtime.services.job_store.get("job_twice")
        assert job is not None and (job.status, job.outcome) == ("error", "error")
        assert "closed while this job was running" in (job.error or "")
        assert (await api.http.get("/api/artifacts")).json() == {"artifacts": []}


async def test_a_session_jobs_cards_may_quote_the_session_and_the_ideas_evidence(
        tmp_path: Path) -> None:
    """A teacher's flashcards job is grounded in the session's own words and in the chosen
    ideas' evidence quotes, so cards quoting either are kept; an invented quote is dropped."""
    cards = {"json": {"title": "Heap cards", "cards": [
        {"front": "What does sift-down do?", "back": "Swaps a parent with its smaller child "
         "until the order holds.", "node_id": "n_sift", "evidence": "Sift-down swaps a parent "
         "with its smaller child until the order holds"},
        {"front": "Where does a heap keep its smallest item?", "back": "At the root.",
         "node_id": None, "evidence": "heaps keep the smallest item at the root"},
        {"front": "Who invented heaps?", "back": "J. W. J. Williams in 1964.",
         "node_id": None, "evidence": "Williams invented the heap in 1964"}]}}
    s = write(tmp_path / "s.json", session_script(
        [job_call("flashcards", {"topic": "heaps sift-down", "count": 3}, "c1")],
        flashcards_writer=[cards]))
    async with scripted_app(s) as (api, runtime):
        seed_heap_graph(runtime.services.graph_store)
        chat_id = await api.new_chat("heaps")
        said = await api.say(chat_id, "Teach me how heaps keep the smallest item at the root")
        assert said.last[0] == "finish"
        await settle(runtime)
        (listed,) = (await api.http.get("/api/artifacts")).json()["artifacts"]
        one = (await api.http.get(f"/api/artifacts/{listed['id']}")).json()
        fronts = [c["front"] for c in one["content"]["cards"]]
        assert fronts == ["What does sift-down do?", "Where does a heap keep its smallest item?"]
        assert one["content"]["dropped"] == 1
