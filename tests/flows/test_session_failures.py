"""Turns under pressure, over HTTP: a concurrent request, a stopped turn, provider failures."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from studyhall.adapters.llm.audit import JsonlAuditLog
from studyhall.adapters.llm.litellm_model import LitellmChatModel
from studyhall.adapters.llm.script import ChatScript
from studyhall.core.contracts.models import ModelRequest
from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.chat_model import FunctionChatModel
from tests.support.session_api import PORT, scripted_app, write_script


class Gated:
    """An answer function for ``FunctionChatModel``: the real model's stream, except that the
    prober's is held after ``after`` events until ``release`` is set."""

    def __init__(self, inner: Any, after: int = 0) -> None:
        self.inner = inner
        self.after = after
        self.holding = asyncio.Event()
        self.release = asyncio.Event()

    async def __call__(self, request: ModelRequest) -> AsyncIterator[Any]:
        n = 0
        if request.role == "prober" and self.after == 0:
            self.holding.set()
            await self.release.wait()
        async for event in self.inner.stream(request):
            yield event
            n += 1
            if request.role == "prober" and n == self.after:
                self.holding.set()
                await self.release.wait()


def _services(script: Path, **model_options: Any):
    config = load_config(port=PORT, script_path=script)
    services = build_services(config)
    if model_options:
        services = replace(services, chat_model=LitellmChatModel(
            services.settings_store, services.secret_store,
            JsonlAuditLog(config.data_dir / "audit.jsonl"),
            script=ChatScript.load(script, config.data_dir / "script_cursor.json"),
            allow_network=False, **model_options,
        ))
    return services


async def test_a_second_request_while_a_turn_runs_gets_409(tmp_path: Path) -> None:
    script = write_script(tmp_path / "s.json", {
        "prober": [{"text": "Hello!"}, {"text": "Welcome back."}], "labeler": [{"text": "T"}]})
    services = _services(script)
    gate = Gated(services.chat_model)
    services = replace(services, chat_model=FunctionChatModel(gate))
    async with scripted_app(script, services=services) as (api, _):
        chat_id = await api.new_chat()
        first = asyncio.create_task(api.say(chat_id, "hi"))
        await asyncio.wait_for(gate.holding.wait(), 30)

        busy = await api.say(chat_id, "hello?")
        assert busy.status == 409
        assert busy.headers["retry-after"] == "1"
        assert "already running" in busy.body["message"]
        assert (await api.answer(chat_id, "x", {"dont_know": True})).status == 409
        assert (await api.resume(chat_id)).status == 409
        chat = await api.chat(chat_id)
        assert chat["turn_running"] is True
        # the learner's message was persisted before the model was called
        assert [m["role"] for m in chat["messages"]] == ["user"]
        assert chat["messages"][0]["parts"][0]["text"] == "hi"

        gate.release.set()
        done = await asyncio.wait_for(first, 30)
        assert done.status == 200 and done.text() == "Hello!" and done.last[0] == "finish"
        assert (await api.chat(chat_id))["turn_running"] is False
        again = await api.say(chat_id, "hello?")  # the busy request was not recorded
        assert again.status == 200 and again.text() == "Welcome back."
        texts = [m["parts"][0]["text"] for m in (await api.chat(chat_id))["messages"]]
        assert texts == ["hi", "Hello!", "hello?", "Welcome back."]


async def test_stopping_a_turn_keeps_what_was_streamed(tmp_path: Path) -> None:
    script = write_script(tmp_path / "s.json", {
        "prober": [{"text": "one two three four"}, {"text": "Again."}], "labeler": [{"text": "T"}]})
    services = _services(script)
    gate = Gated(services.chat_model, after=1)
    services = replace(services, chat_model=FunctionChatModel(gate))
    async with scripted_app(script, services=services) as (api, _):
        chat_id = await api.new_chat()
        turn = asyncio.create_task(api.say(chat_id, "hi"))
        await asyncio.wait_for(gate.holding.wait(), 30)
        stopped = await api.http.post(f"/api/chats/{chat_id}/stop")
        assert stopped.json() == {"stopped": True}
        result = await asyncio.wait_for(turn, 30)
        assert result.last == ("finish", {"reason": "stopped", "phase": "probe", "pending": []})
        chat = await api.chat(chat_id)
        assert chat["turn_running"] is False
        shown = result.text()
        assert shown and "four" not in shown
        assert chat["messages"][-1]["parts"] == [{"type": "text", "text": shown}]
        assert (await api.http.post(f"/api/chats/{chat_id}/stop")).json() == {"stopped": False}
        gate.after = -1  # no more holding
        assert (await api.say(chat_id, "go on")).text() == "Again."


async def test_provider_auth_error_ends_the_turn_with_a_user_facing_message(tmp_path: Path) -> None:
    script = write_script(tmp_path / "s.json", {
        "prober": [{"error": "auth"}, {"text": "Hello, now with a working key."}],
        "labeler": [{"text": "T"}]})
    async with scripted_app(script) as (api, _):
        chat_id = await api.new_chat()
        turn = await api.say(chat_id, "hi")
        assert turn.status == 200
        assert turn.names() == ["message-start", "error"]
        error = turn.last[1]
        assert error["kind"] == "auth" and error["role"] == "prober"
        assert "prober" in error["message"] and "Settings" in error["message"]
        assert error["action"] == "open-settings"
        chat = await api.chat(chat_id)
        assert [m["role"] for m in chat["messages"]] == ["user"]  # no empty assistant message
        assert chat["turn_running"] is False
        # after fixing the key the learner retries the owed turn; nothing is sent twice
        retry = await api.resume(chat_id)
        assert retry.text() == "Hello, now with a working key." and retry.last[0] == "finish"
        chat = await api.chat(chat_id)
        assert [m["role"] for m in chat["messages"]] == ["user", "assistant"]


async def test_rate_limit_is_retried_then_reported(tmp_path: Path) -> None:
    script = write_script(tmp_path / "s.json", {
        "prober": [{"error": "rate_limit"}, {"text": "Made it."},
                   *[{"error": "rate_limit"}] * 3],
        "labeler": [{"text": "T"}]})
    services = _services(script, max_attempts=3, backoff_base=0.001, backoff_cap=0.01)
    async with scripted_app(script, services=services) as (api, runtime):
        chat_id = await api.new_chat()
        turn = await api.say(chat_id, "hi")
        assert turn.text() == "Made it." and turn.last[0] == "finish"

        turn = await api.say(chat_id, "and again")
        assert turn.last[0] == "error"
        error = turn.last[1]
        assert error["kind"] == "rate_limit" and error["role"] == "prober"
        assert "3 tries" in error["message"] and error["action"] == "retry"
        await runtime.supervisor.idle()
        rows = [json.loads(x) for x in
                (services.config.data_dir / "audit.jsonl").read_text().splitlines()]
        prober_rows = [(r["attempts"], r["outcome"]) for r in rows if r["role"] == "prober"]
        assert prober_rows == [(2, "ok"), (3, "rate_limit")]  # one audit row per model call


async def test_a_broken_script_entry_is_an_error_event_not_a_crash(tmp_path: Path) -> None:
    script = write_script(tmp_path / "s.json", {"prober": [{"text": "Only one answer."}]})
    async with scripted_app(script) as (api, _):
        chat_id = await api.new_chat()
        assert (await api.say(chat_id, "hi")).text() == "Only one answer."
        turn = await api.say(chat_id, "more")
        assert turn.last[0] == "error"
        assert turn.last[1]["role"] == "prober" and "prober" in turn.last[1]["message"]
        assert (await api.chat(chat_id))["turn_running"] is False
