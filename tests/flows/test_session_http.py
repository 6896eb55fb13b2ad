"""A whole scripted session over real HTTP (ASGI), checking the record, phase and plan at each step.

greeting -> prober quiz -> answer -> probe_done -> teacher plan_init (broken) -> corrected plan
-> learner asks for a change -> revised plan -> approval -> teaching text -> tagged quiz -> answer.
The app is ``build_services`` + ``build_app`` with ``STUDYHALL_SCRIPT`` and no key: the
production litellm adapter answers offline from the script.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from studyhall.core.contracts.models import ModelRequest
from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.chat_model import FunctionChatModel
from tests.support.graph_lesson import PROBE_ARGS, SCRIPT, TEACH_QUIZ
from tests.support.session_api import PORT, scripted_app, write_script


def displayed_index(question: dict[str, Any], text: str) -> int:
    return question["choices"].index(text)


def assert_no_unanswered_tool_call(request: ModelRequest) -> None:
    waiting: list[str] = []
    for m in request.messages:
        if m["role"] == "tool":
            assert waiting and m["tool_call_id"] == waiting.pop(0)
        else:
            assert not waiting, f"unanswered tool calls {waiting} in a {request.role} request"
            waiting = [c["id"] for c in m.get("tool_calls", [])]
    assert not waiting


def no_answer_key(value: Any) -> bool:
    text = json.dumps(value)
    return '"correct"' not in text and "n-1" not in text


@pytest.fixture
def script(tmp_path: Path) -> Path:
    return write_script(tmp_path / "script.json", SCRIPT)


async def test_full_scripted_session(script: Path) -> None:
    services = build_services(load_config(port=PORT, script_path=script))
    recorder = FunctionChatModel(services.chat_model.stream)  # keeps what each role was shown
    services = replace(services, chat_model=recorder)
    async with scripted_app(script, services=services) as (api, runtime):
        chat_id = await api.new_chat("graph theory")
        chat = await api.chat(chat_id)
        assert chat["messages"] == [] and chat["phase"] == "probe" and chat["plan"] is None

        # 1. greeting
        turn = await api.say(chat_id, "Hi, I want to learn graph theory")
        assert turn.status == 200
        assert turn.names()[0] == "message-start" and turn.of("message-start")[0]["agent"] == "prober"
        assert "quick questions" in turn.text()
        assert turn.last == ("finish", {"reason": "stop", "phase": "probe", "pending": []})
        await runtime.supervisor.idle()
        chat = await api.chat(chat_id)
        assert [m["role"] for m in chat["messages"]] == ["user", "assistant"]
        assert chat["messages"][0]["parts"] == [
            {"type": "text", "text": "Hi, I want to learn graph theory"}]
        assert chat["title"] == "Graph basics"  # named by the labeler after the first turn

        # 2. the prober quizzes; the question is shown shuffled and without its answer key
        turn = await api.say(chat_id, "Ready")
        (call,) = turn.of("tool-call")
        assert call["name"] == "quiz" and call["tool_call_id"] == "probe_q"
        assert call["state"] == "input-available" and no_answer_key(call)
        assert turn.last[1] == {"reason": "awaiting-answer", "phase": "probe", "pending": ["probe_q"]}
        chat = await api.chat(chat_id)
        (pending,) = chat["pending"]
        assert pending["tool_call_id"] == "probe_q" and no_answer_key(chat["messages"])
        question = pending["presented"]["questions"][0]
        assert sorted(question["choices"]) == ["10", "4", "5"]

        # 3. answer -> graded; the prober files its assessment; the teacher takes over at once
        turn = await api.answer(chat_id, "probe_q", {"choices": [[displayed_index(question, "4")]]})
        assert turn.status == 200
        first = turn.events[0]
        assert first[0] == "tool-result" and first[1]["tool_call_id"] == "probe_q"
        assert first[1]["output"]["results"][0]["verdict"] == "correct"
        assert turn.names().count("message-start") == 2
        assert [s["agent"] for s in turn.of("message-start")] == ["prober", "teacher"]
        (steer,) = turn.of("steer")
        assert steer["steer_id"] == f"steer_probe_{chat_id}" and steer["kind"] == "handoff"
        assert steer["data"]["assessment"]["goal"] == "pass my discrete maths exam"
        results = {r["tool_call_id"]: r for r in turn.of("tool-result")}
        assert results["probe_fin"]["state"] == "output-available"
        assert results["plan_bad"]["state"] == "output-error"
        assert "line 2" in results["plan_bad"]["error"]
        plan_call = next(c for c in turn.of("tool-call") if c["tool_call_id"] == "plan_v1")
        assert [n["id"] for n in plan_call["plan"]["nodes"]] == ["A", "B"]
        assert turn.last[1] == {"reason": "awaiting-answer", "phase": "plan", "pending": ["plan_v1"]}
        chat = await api.chat(chat_id)
        assert chat["phase"] == "plan" and chat["plan"] is None
        assert [p["tool_call_id"] for p in chat["pending"]] == ["plan_v1"]
        roles = [(m["role"], m["agent"]) for m in chat["messages"]]
        assert roles[-3:] == [("assistant", "prober"), ("user", None), ("assistant", "teacher")]
        prober_parts = chat["messages"][-3]["parts"]
        assert {"type": "data", "name": "assessment", "data": PROBE_ARGS} in prober_parts
        # the teacher's first request: its own prompt, the hand-off steer, its own tools
        teacher_req = next(r for r in recorder.requests if r.role == "teacher")
        assert "You are the teacher" in teacher_req.messages[0]["content"]
        assert "hands the session to you" in teacher_req.messages[-1]["content"]
        assert {t.name for t in teacher_req.tools} == {  # its own, the jobs, the learner's
            "plan_init", "quiz", "ask_user_question",
            "research", "demo", "visual", "notes", "flashcards", "study_plan", "study_guide",
            "mind_map",
            "learning_strengths", "concept_confidence", "explain_score", "search_history",
            "due_reviews", "search_material", "record_observation"}
        # the correction request saw the line-numbered error as the tool result
        fix_req = [r for r in recorder.requests if r.role == "teacher"][1]
        assert fix_req.messages[-1]["role"] == "tool" and "line 2" in fix_req.messages[-1]["content"]

        # 4. the learner asks for a change; the teacher revises the plan
        turn = await api.answer(chat_id, "plan_v1", {"approve": False, "comment": "Please add trees"})
        assert turn.events[0][1]["output"] == {"approve": False, "comment": "Please add trees"}
        assert "Added trees." in turn.text()
        assert turn.last[1] == {"reason": "awaiting-answer", "phase": "plan", "pending": ["plan_v2"]}
        revise_req = [r for r in recorder.requests if r.role == "teacher"][-1]
        assert "Please add trees" in revise_req.messages[-1]["content"]
        chat = await api.chat(chat_id)
        assert chat["phase"] == "plan" and chat["plan"] is None

        # 5. approve -> teaching text and a quiz tagged with the plan node
        turn = await api.answer(chat_id, "plan_v2", {"approve": True})
        assert "vertices joined by edges" in turn.text()
        (quiz,) = turn.of("tool-call")
        assert quiz["presented"]["plan_node"] == "A" and no_answer_key(quiz)
        assert turn.last[1] == {"reason": "awaiting-answer", "phase": "teach", "pending": ["teach_q"]}
        chat = await api.chat(chat_id)
        assert chat["phase"] == "teach"
        assert chat["plan"]["title"] == "Graph basics" and chat["plan"]["tool_call_id"] == "plan_v2"
        statuses = {n["id"]: n["status"] for n in chat["plan"]["nodes"]}
        assert statuses == {"A": "current", "B": "upcoming", "C": "upcoming"}
        assert [e["from"] + e["to"] for e in chat["plan"]["edges"]] == ["AB", "BC"]

        # 6. answer the tagged quiz -> the teacher goes on
        q = chat["pending"][0]["presented"]["questions"][0]
        turn = await api.answer(chat_id, "teach_q", {"choices": [[displayed_index(q, "an edge")]]})
        assert turn.events[0][1]["output"]["results"][0]["verdict"] == "correct"
        assert turn.text() == "Exactly. Next: paths."
        assert turn.last[1] == {"reason": "stop", "phase": "teach", "pending": []}
        chat = await api.chat(chat_id)
        assert chat["pending"] == [] and chat["phase"] == "teach"
        answered = next(p for m in chat["messages"] for p in m["parts"]
                    if p.get("tool_call_id") == "teach_q")
        assert answered["state"] == "output-available" and answered["input"] == TEACH_QUIZ
        statuses = {n["id"]: n["status"] for n in chat["plan"]["nodes"]}
        assert statuses == {"A": "current", "B": "upcoming", "C": "upcoming"}
        assert chat["usage"]["input_tokens"] > 0

        # no provider ever saw an unanswered tool call
        for request in recorder.requests:
            assert_no_unanswered_tool_call(request)
        # one audit row per model call (no content)
        rows = [json.loads(x) for x in (services.config.data_dir / "audit.jsonl").read_text()
                .splitlines()]
        assert len(rows) == len(recorder.requests)
        assert "Please add trees" not in json.dumps(rows)

        listing = (await api.http.get("/api/chats")).json()
        assert [c["id"] for c in listing] == [chat_id] and listing[0]["title"] == "Graph basics"


async def test_answers_are_checked_before_anything_is_written(script: Path) -> None:
    async with scripted_app(script) as (api, _):
        chat_id = await api.new_chat()
        await api.say(chat_id, "hi")
        await api.say(chat_id, "ready")
        before = await api.chat(chat_id)
        bad = await api.answer(chat_id, "probe_q", {"choices": [[7]]})
        assert bad.status == 400 and "index" in bad.body["message"]
        unknown = await api.answer(chat_id, "nope", {"choices": [[0]]})
        assert unknown.status == 404
        shape = await api.http.post(f"/api/chats/{chat_id}/answers", json={"answer": 3})
        assert shape.status_code == 400
        garbage = await api.http.post(f"/api/chats/{chat_id}/answers", content=b"{not json")
        assert garbage.status_code == 400 and "JSON" in garbage.json()["message"]
        after = await api.chat(chat_id)
        assert after["messages"] == before["messages"]
        ok = await api.answer(chat_id, "probe_q", {"dont_know": True})
        assert ok.status == 200 and ok.events[0][1]["output"]["dont_know"] is True
        again = await api.answer(chat_id, "probe_q", {"dont_know": True})
        assert again.status == 409 and "already answered" in again.body["message"]


async def test_writing_instead_of_answering_skips_the_question(script: Path) -> None:
    data = {**SCRIPT, "prober": [*SCRIPT["prober"][:2], {"text": "No problem, let's talk."}]}
    path = write_script(script.parent / "skip.json", data)
    async with scripted_app(path) as (api, _):
        chat_id = await api.new_chat()
        await api.say(chat_id, "hi")
        await api.say(chat_id, "ready")
        turn = await api.say(chat_id, "Actually, can we just talk?")
        assert turn.text() == "No problem, let's talk."
        chat = await api.chat(chat_id)
        assert chat["pending"] == []
        skipped = next(p for m in chat["messages"] for p in m["parts"]
                   if p.get("tool_call_id") == "probe_q")
        assert skipped["state"] == "output-error" and "wrote a message" in skipped["error"]
        late = await api.answer(chat_id, "probe_q", {"dont_know": True})
        assert late.status == 409


async def test_bad_requests_are_refused_with_a_clear_message(script: Path) -> None:
    async with scripted_app(script) as (api, _):
        assert (await api.http.get("/api/chats/chat_missing")).status_code == 404
        missing = await api.say("chat_missing", "hi")
        assert missing.status == 404 and "No session" in missing.body["message"]
        chat_id = await api.new_chat()
        empty = await api.say(chat_id, "")
        assert empty.status == 400
        huge = await api.say(chat_id, "x" * 20_001)
        assert huge.status == 400
        long_topic = await api.http.post("/api/chats", json={"topic": "t" * 500})
        assert long_topic.status_code == 400
        nothing = await api.resume(chat_id)
        assert nothing.status == 409 and "Nothing to continue" in nothing.body["message"]
        assert (await api.chat(chat_id))["messages"] == []
        doc = (await api.http.get("/api/openapi.json")).json()
        assert "/api/chats/{chat_id}/answers" in doc["paths"]
