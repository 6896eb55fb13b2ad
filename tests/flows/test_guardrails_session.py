"""The guardrails in a real session (build_services + build_app, scripted models): the router
answers out-of-scope requests itself, "quiz me" reaches the agent as an instruction, personal
data never reaches the provider yet the learner reads it, "send as written" is honoured, the
audit row carries the risk, and Settings → Privacy decides for a local server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from studyhall.core.agents.roster import QUIZ_NOTE
from studyhall.core.guardrails.intent import DISHONESTY_REPLY
from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.guarded import record_provider
from tests.support.session_api import PORT, scripted_app, write_script

EMAIL = "jane.doe@example.com"
QUIZ = {"tool_calls": [{"name": "quiz", "id": "q1", "arguments": {"questions": [
    {"prompt": "2 + 2?", "choices": ["3", "4"], "correct": [1]}]}}]}


def app_with(tmp_path: Path, script: dict[str, Any]):  # type: ignore[no-untyped-def]
    path = write_script(tmp_path / "script.json", script)
    services, provider = record_provider(build_services(load_config(port=PORT, script_path=path)))
    return scripted_app(path, services), provider


def audit_rows(data_dir: Path) -> list[dict[str, Any]]:
    path = data_dir / "audit.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


async def test_an_out_of_scope_request_gets_the_canned_reply_and_no_model_call(
        tmp_path: Path, _isolated_data_dir: Path) -> None:
    app, provider = app_with(tmp_path, {"labeler": [{"text": "x"}]})
    async with app as (api, runtime):
        chat_id = await api.new_chat(None)
        turn = await api.say(chat_id, "Write my essay on Hamlet so I can submit it tomorrow")
        assert turn.status == 200 and turn.names() == ["message-start", "text-delta", "finish"]
        assert turn.text() == DISHONESTY_REPLY and turn.last[1]["reason"] == "stop"
        await runtime.supervisor.idle()
        chat = await api.chat(chat_id)
        assert [m["role"] for m in chat["messages"]] == ["user", "assistant"]
        assert chat["messages"][1]["parts"] == [{"type": "text", "text": DISHONESTY_REPLY}]
    assert provider.requests == [] and audit_rows(_isolated_data_dir) == []


async def test_quiz_me_tells_the_agent_to_quiz_until_it_has(tmp_path: Path) -> None:
    app, provider = app_with(tmp_path, {"prober": [QUIZ, {"text": "Well done."}],
                                        "labeler": [{"text": "Sums"}]})
    async with app as (api, runtime):
        chat_id = await api.new_chat("sums")
        turn = await api.say(chat_id, "quiz me on sums")
        assert [c["name"] for c in turn.of("tool-call")] == ["quiz"]
        done = await api.answer(chat_id, "q1", {"dont_know": True})
        assert done.status == 200 and done.last[0] == "finish"
        await runtime.supervisor.idle()
    first, second = provider.of("prober")
    assert QUIZ_NOTE in first.messages[0]["content"]
    assert QUIZ_NOTE not in second.messages[0]["content"]  # answered: no second quiz forced


async def test_pii_never_reaches_the_provider_and_the_learner_reads_it(
        tmp_path: Path, _isolated_data_dir: Path) -> None:
    app, provider = app_with(tmp_path, {"prober": [{"text": "I'll write to <EMAIL_1> then."}],
                                        "labeler": [{"text": "Mail"}]})
    async with app as (api, runtime):
        chat_id = await api.new_chat(None)
        turn = await api.say(chat_id, f"My email is {EMAIL}, send me notes")
        assert turn.text() == f"I'll write to {EMAIL} then."
        await runtime.supervisor.idle()
        chat = await api.chat(chat_id)
        assert chat["messages"][1]["parts"][0]["text"] == f"I'll write to {EMAIL} then."
    (sent,) = provider.of("prober")
    assert EMAIL not in json.dumps(sent.messages) and "<EMAIL_1>" in json.dumps(sent.messages)
    prober_rows = [r for r in audit_rows(_isolated_data_dir) if r["role"] == "prober"]
    assert prober_rows[0]["risk"] == "pii-scrubbed"
    assert EMAIL not in (_isolated_data_dir / "audit.jsonl").read_text()


async def test_a_message_sent_as_written_reaches_the_provider_as_written(
        tmp_path: Path, _isolated_data_dir: Path) -> None:
    app, provider = app_with(tmp_path, {"prober": [{"text": "Noted."}],
                                        "labeler": [{"text": "Mail"}]})
    async with app as (api, runtime):
        chat_id = await api.new_chat(None)
        turn = await api.say(chat_id, f"Please use {EMAIL} in the example", as_written=True)
        assert turn.status == 200
        await runtime.supervisor.idle()
        chat = await api.chat(chat_id)
        assert {"type": "data", "name": "as_written", "data": {}} in chat["messages"][0]["parts"]
    (sent,) = provider.of("prober")
    learner = sent.messages[-1]
    assert learner == {"role": "user", "content": f"Please use {EMAIL} in the example"}
    rows = [r for r in audit_rows(_isolated_data_dir) if r["role"] == "prober"]
    assert rows[0]["risk"] == "pii-sent"


async def test_a_local_server_is_scrubbed_only_when_settings_say_so(
        tmp_path: Path, _isolated_data_dir: Path) -> None:
    app, provider = app_with(tmp_path, {"prober": [{"text": "a"}, {"text": "b"}],
                                        "labeler": [{"text": "Mail"}] * 2})
    async with app as (api, runtime):
        local = {"model": "openai/local-llama", "api_base": "http://localhost:8000/v1"}
        r = await api.http.put("/api/settings/models", json={"models": {"prober": local}})
        assert r.status_code == 200
        assert r.json()["privacy"] == {"scrub_local": False, "local_roles": ["prober"],
                                       "unscrubbed_roles": ["prober"]}
        chat_id = await api.new_chat(None)
        await api.say(chat_id, f"mail {EMAIL}")
        r = await api.http.put("/api/settings/privacy", json={"scrub_local": True})
        assert r.status_code == 200 and r.json()["privacy"]["unscrubbed_roles"] == []
        await api.say(chat_id, f"again {EMAIL}")
        bad = await api.http.put("/api/settings/privacy", json={"scrub_local": "maybe"})
        assert bad.status_code == 400
        await runtime.supervisor.idle()
    first, second = provider.of("prober")
    assert EMAIL in first.messages[-1]["content"]
    assert EMAIL not in json.dumps(second.messages)
