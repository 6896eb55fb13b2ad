"""The Ask history over the real app with scripted models: a question asked with a
``thread_id`` is kept with its case, passages and answer; a follow-up joins the same
conversation; one asked without it is not kept; the list is newest first; a conversation can be
re-opened and forgotten; bad ids are refused."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.course import OverlapScorer, vtt
from tests.support.embedder import HashEmbedder
from tests.support.session_api import PORT, parse_sse, scripted_app, write_script

LECTURE = [
    (0, 6, "Mark and sweep marks every object reachable from the roots."),
    (7, 13, "The sweep phase frees every unmarked object."),
    (100, 106, "Reference counting cannot reclaim cycles of objects."),
]
GRADES = {"json": {"grades": [{"n": 1, "grade": "answers"}, {"n": 2, "grade": "related"}]}}
FIRST, SECOND = "ask_0123456789abcdef", "ask_fedcba9876543210"


async def test_questions_are_kept_per_conversation(tmp_path: Path):
    (tmp_path / "course").mkdir()
    (tmp_path / "course" / "gc.vtt").write_text(vtt(LECTURE))
    script = {"reranker": [GRADES, GRADES, GRADES, GRADES],
              "rewriter": [{"text": "What does the sweep phase of mark and sweep free?"}],
              "answerer": [{"text": "It marks what the roots reach [1]."},
                           {"text": "It frees unmarked objects [1]."},
                           {"text": "Not kept."},
                           {"text": "Cycles leak [1]."}]}
    path = write_script(tmp_path / "script.json", script)
    services = replace(build_services(load_config(port=PORT, script_path=path)),
                       embedder=HashEmbedder(), passage_scorer=OverlapScorer())
    async with scripted_app(path, services) as (api, runtime):
        await runtime.library.index_material(str(tmp_path / "course"))
        http = api.http
        assert (await http.get("/api/asks")).json() == {"threads": []}

        r = await http.post("/api/ask", json={"question": "What does mark and sweep mark?",
                                              "thread_id": FIRST})
        assert parse_sse(r.text)[-1][0] == "finish"
        history = [{"role": "user", "text": "What does mark and sweep mark?"},
                   {"role": "assistant", "text": "It marks what the roots reach [1]."}]
        await http.post("/api/ask", json={"question": "And what does it free?",
                                          "history": history, "thread_id": FIRST})
        await http.post("/api/ask", json={"question": "What frees unmarked objects?"})
        await http.post("/api/ask", json={"question": "Why do cycles leak?", "thread_id": SECOND})

        threads = (await http.get("/api/asks")).json()["threads"]
        assert [t["id"] for t in threads] == [SECOND, FIRST]  # newest first, the untracked one absent
        assert threads[1]["title"] == "What does mark and sweep mark?" and threads[1]["questions"] == 2

        thread = (await http.get(f"/api/asks/{FIRST}")).json()
        first, follow = thread["exchanges"]
        assert first["answer"] == "It marks what the roots reach [1]." and first["answered"] is True
        assert first["case"] == "MATCH" and first["sources"][0]["link"].startswith("gc.vtt#t=")
        assert follow["question"] == "And what does it free?" and "frees" in follow["answer"]

        assert (await http.get("/api/asks/ask_00000000")).status_code == 404
        r = await http.post("/api/ask", json={"question": "x?", "thread_id": "../etc"})
        assert r.status_code == 400
        assert (await http.delete(f"/api/asks/{SECOND}")).status_code == 204
        assert [t["id"] for t in (await http.get("/api/asks")).json()["threads"]] == [FIRST]
        assert (await http.delete(f"/api/asks/{SECOND}")).status_code == 404


async def test_with_no_model_the_question_is_kept_unanswered(tmp_path: Path):
    (tmp_path / "course").mkdir()
    (tmp_path / "course" / "gc.vtt").write_text(vtt(LECTURE))
    services = replace(build_services(load_config(port=PORT, script_path=None)),
                       embedder=HashEmbedder(), passage_scorer=OverlapScorer())
    async with scripted_app(None, services) as (api, runtime):
        await runtime.library.index_material(str(tmp_path / "course"))
        await api.http.post("/api/ask", json={"question": "What frees unmarked objects?",
                                              "thread_id": FIRST})
        exchange = (await api.http.get(f"/api/asks/{FIRST}")).json()["exchanges"][0]
        assert exchange["answered"] is False and exchange["answer"] == ""
        assert exchange["reason"] and exchange["case"] is not None
        assert exchange["passages"] and exchange["passages"][0]["source_id"].startswith("transcript_")
        # Near the question, the kept case says only a model could tell (and reads back so).
        assert exchange["case"] == "NO_MATCH" and exchange["unconfirmed"] is True
        await api.http.post("/api/ask", json={"question": "What is the capital of Peru?",
                                              "thread_id": SECOND})
        far = (await api.http.get(f"/api/asks/{SECOND}")).json()["exchanges"][0]
        assert far["case"] == "NO_MATCH" and far["unconfirmed"] is False
