"""A scripted session becomes graph knowledge over real HTTP: extract, then GET /api/graph.

The production wiring (build_services + build_app, litellm adapter answering from
STUDYHALL_SCRIPT) runs prober → quiz → answer, then the extractor and auditor from the script.
"""

from __future__ import annotations

from pathlib import Path

from studyhall.core.contracts.settings import Settings
from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.runs import finished
from tests.support.session_api import PORT, scripted_app, write_script
from tests.support.trees_lesson import EXTRACTION, TREE, hold_session, script


async def test_extract_then_read_the_graph(tmp_path: Path) -> None:
    path = write_script(tmp_path / "script.json", script(
        [{"json": EXTRACTION}],
        [{"json": {"verdicts": [{"key": "p1", "keep": True, "reason": "backed"},
                                {"key": "p2", "keep": True, "reason": "true"}]}}]))
    services = build_services(load_config(port=PORT, script_path=path))
    async with scripted_app(path, services=services) as (api, runtime):
        chat_id = await hold_session(api, runtime)
        empty = await api.http.get("/api/graph")  # also warms the route's body cache
        assert empty.json() == {"nodes": [], "edges": [], "clusters": []}
        assert empty.headers["content-type"] == "application/json"
        ledgers = services.config.data_dir / "graph"
        assert not any(ledgers.glob("*.jsonl"))  # a read never writes

        r = await api.http.post(f"/api/chats/{chat_id}/extract")
        assert r.status_code == 200, r.text
        run_id = r.json()["run_id"]
        run = await finished(runtime.library.extraction_run(run_id))
        assert run.status == "done", run.error

        graph = (await api.http.get("/api/graph")).json()  # the merge shows: nothing stale
        # p2's quote was invented: dropped; p1, near nothing in an empty graph, hangs under the
        # session's topic, named for the session (its title, "Trees"; issue 28 item 5).
        assert sorted(n["text"] for n in graph["nodes"]) == sorted([TREE, "Trees"])
        [node] = [n for n in graph["nodes"] if n["text"] == TREE]
        [topic] = [n for n in graph["nodes"] if n["text"] == "Trees"]
        assert node["text"] == TREE and node["state"] == "solid"
        assert node["evidence"][0]["message_id"] == "m_learner"
        assert [q["verdict"] for q in node["quiz"]] == ["correct"]
        assert node["quiz"][0]["tool_call_id"] == "probe_q"
        # Not the self-loop nor the edge to the dropped finding: only the tie to the topic.
        assert [(e["from"], e["to"]) for e in graph["edges"]] == [(node["id"], topic["id"])]

        status = (await api.http.get(f"/api/extraction/runs/{run_id}")).json()
        assert status["status"] == "done" and status["progress"] == {"done": 1, "total": 1}
        assert any("quote not found verbatim in 'm_learner'" in d for d in status["drops"])
        assert any("self-loop" in d for d in status["drops"])
        coverage = (await api.http.get(f"/api/chats/{chat_id}/coverage")).json()
        assert coverage["uncovered_tokens"] == 0 and coverage["running"] is None

        # Re-running: nothing uncovered, nothing written, the graph is unchanged.
        again = (await api.http.post(f"/api/chats/{chat_id}/extract")).json()
        await finished(runtime.library.extraction_run(again["run_id"]))
        assert (await api.http.get("/api/graph")).json() == graph
        assert (await api.http.post("/api/chats/nope/extract")).status_code == 404


async def test_invalid_json_twice_fails_the_run_and_writes_nothing(tmp_path: Path) -> None:
    path = write_script(tmp_path / "script.json", script(
        [{"text": "not json"}, {"text": "{\"propositions\": 3}"}], []))
    services = build_services(load_config(port=PORT, script_path=path))
    async with scripted_app(path, services=services) as (api, runtime):
        chat_id = await hold_session(api, runtime)
        run_id = (await api.http.post(f"/api/chats/{chat_id}/extract")).json()["run_id"]
        run = await finished(runtime.library.extraction_run(run_id))
        assert run.status == "error" and "Settings" in (run.error or "")
        status = (await api.http.get(f"/api/extraction/runs/{run_id}")).json()
        assert status["status"] == "error"
        assert (await api.http.get("/api/graph")).json()["nodes"] == []
        assert not (services.config.data_dir / "graph" / "checkpoints.jsonl").exists()


async def test_a_turn_that_crosses_chunk_tokens_triggers_extraction(tmp_path: Path) -> None:
    path = write_script(tmp_path / "script.json", script(
        [{"json": {"propositions": [], "edges": []}}] * 6, []))
    services = build_services(load_config(port=PORT, script_path=path))
    services.settings_store.save(Settings(chunk_tokens=100))
    async with scripted_app(path, services=services) as (api, runtime):
        chat_id = await api.new_chat("trees")
        library = runtime.library
        await api.say(chat_id, "short")
        await runtime.supervisor.idle()
        assert library.extraction_runs() == []  # below the threshold: no run
        long_text = "Trees are connected graphs without cycles. " * 12
        await api.say(chat_id, long_text)
        await runtime.supervisor.idle()
        [run] = library.extraction_runs()
        assert run.reason == "trigger"
        await finished(library.extraction_run(run.id))
        assert run.status == "done", run.error
        assert run.batches_done >= 2 and library.coverage(chat_id)["uncovered_tokens"] == 0
        runs = (await api.http.get("/api/extraction/runs")).json()
        assert runs[0]["run_id"] == run.id

