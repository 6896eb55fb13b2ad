"""The composition root builds every part at once, wired the same whatever runs first: a session
is hooked to extraction before any graph route ran, and ports cannot be swapped once built."""

from __future__ import annotations

import dataclasses
from dataclasses import replace

import pytest
from studyhall.core.contracts.settings import Settings
from studyhall.server.app import build_runtime, build_services
from studyhall.server.config import load_config

from tests.support.chat_script import say, scripted
from tests.support.embedder import HashEmbedder


async def test_a_session_triggers_extraction_before_any_graph_route_ran(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789")  # the extractor's key is there
    model = scripted(prober=[say("Tell me more.")] * 2, labeler=[say("Trees")],
                     extractor=[], auditor=[])
    services = replace(build_services(load_config(data_dir=tmp_path)), chat_model=model,
                       embedder=HashEmbedder())
    services.settings_store.save(Settings(chunk_tokens=100))
    runtime = build_runtime(services)  # no app, no route: only the runtime itself
    chat = runtime.classroom.create_chat("trees")
    turn = await runtime.classroom.send_message(chat.id, "Trees are graphs without cycles. " * 12)
    async for _ in turn.events():
        pass
    await runtime.supervisor.idle()
    [run] = runtime.library.extraction_runs()
    assert (run.source_id, run.reason) == (chat.id, "trigger")
    assert runtime.workbench.activity()["recent"][0]["run_id"] == run.id  # the feed sees it


def test_ports_cannot_be_swapped_once_built(tmp_path) -> None:
    services = build_services(load_config(data_dir=tmp_path))
    with pytest.raises(dataclasses.FrozenInstanceError):
        services.embedder = HashEmbedder()  # type: ignore[misc]
    runtime = build_runtime(services)
    with pytest.raises(dataclasses.FrozenInstanceError):
        runtime.classroom = runtime.classroom  # type: ignore[misc]
