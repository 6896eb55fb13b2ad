"""Starting a session with no usable key fails at once with "Add a key" and the action that
fixes it (Open settings): the model is never called, so no 10–35 s wait for a refusal."""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import replace
from pathlib import Path

import pytest
from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.session_api import PORT, scripted_app


class NeverCalled:
    """A chat model that fails the test if the turn asks it anything."""

    def stream(self, request: object) -> object:
        raise AssertionError("the model was called although no key is saved")

    async def complete(self, request: object) -> object:
        raise AssertionError("the model was called although no key is saved")


async def test_a_session_without_a_key_says_add_a_key_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in [k for k in os.environ if k.endswith("_API_KEY")]:
        monkeypatch.delenv(name)
    services = build_services(load_config(port=PORT, script_path=None, data_dir=tmp_path / "data"))
    services = replace(services, chat_model=NeverCalled())
    async with scripted_app(None, services=services, data_dir=tmp_path / "data") as (api, _):
        chat_id = await api.new_chat("graphs")
        started = time.monotonic()
        sse = await api.say(chat_id, "I'd like to learn about graphs.")
        took = time.monotonic() - started
        errors = sse.of("error")
        assert errors, sse.events
        assert errors[0]["message"].startswith("Add a key")
        assert errors[0]["action"] == "open-settings"
        # In the learner's words: the session's model, not the "prober" role Settings names.
        assert "this session's model" in errors[0]["message"]
        assert "prober" not in errors[0]["message"]
        assert took < 3, f"the refusal took {took:.1f} s"
        chat = await api.chat(chat_id)
        assert chat["failure"] and chat["failure"]["message"].startswith("Add a key")
        # "Add to graph" would only fail: the coverage says why, and a run fails at once.
        coverage = (await api.http.get(f"/api/chats/{chat_id}/coverage")).json()
        assert coverage["needs_key"].startswith("Add a key to put this session into your graph")
        started = time.monotonic()
        run_id = (await api.http.post(f"/api/chats/{chat_id}/extract")).json()["run_id"]
        while (run := (await api.http.get(f"/api/extraction/runs/{run_id}")).json())[
                "status"] == "running":
            await asyncio.sleep(0.02)
        assert run["status"] == "error" and run["error"] == coverage["needs_key"]
        assert time.monotonic() - started < 3, "the refusal waited for a model call"
