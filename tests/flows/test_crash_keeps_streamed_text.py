"""Text streamed before a crash is not lost: while a turn streams, what the learner has read is
on disk every few hundred characters, marked incomplete — the record a kill -9 would leave is
owed a reply and shows the text as cut; the finished answer then replaces the checkpoint."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace

from studyhall.adapters.store import JsonChatStore
from studyhall.core.classroom.turn_state import owes_reply
from studyhall.core.contracts.models import ModelRequest, StreamedText
from studyhall.core.contracts.settings import RoleModel
from studyhall.server.app import build_services
from studyhall.server.config import load_config
from studyhall.server.runtime.classroom.views import chat_view

from tests.support.chat_model import FunctionChatModel
from tests.support.session_api import PORT, scripted_app


async def test_text_streamed_before_a_crash_is_on_disk_marked_incomplete() -> None:
    held, release = asyncio.Event(), asyncio.Event()

    async def answer(request: ModelRequest) -> AsyncIterator[StreamedText]:
        if request.role != "prober":
            yield StreamedText(text="Title")
            return
        for _ in range(4):
            yield StreamedText(text="y" * 100)
        held.set()
        await release.wait()
        yield StreamedText(text="!")

    services = replace(build_services(load_config(port=PORT, script_path=None)),
                       chat_model=FunctionChatModel(answer))
    settings = services.settings_store.load()  # a keyless local model: no "add a key" first
    services.settings_store.save(settings.model_copy(update={"models": {
        **settings.models, "prober": RoleModel(model="ollama/llama3.2"),
        "labeler": RoleModel(model="ollama/llama3.2")}}))
    async with scripted_app(None, services=services) as (api, runtime):
        chat_id = await api.new_chat()
        turn = asyncio.create_task(api.say(chat_id, "hi"))
        await asyncio.wait_for(held.wait(), 30)

        # What a crash now would leave: read straight from the chat file.
        on_disk = JsonChatStore(services.config.data_dir / "chats").get(chat_id)
        assert on_disk is not None and owes_reply(on_disk.messages)
        shown = chat_view(on_disk, running=False)["messages"][-1]
        assert shown["parts"] == [{"type": "text", "text": "y" * 300},
                                  {"type": "data", "name": "incomplete", "data": {}}]

        release.set()
        done = await asyncio.wait_for(turn, 30)
        assert done.last[0] == "finish"
        await runtime.supervisor.idle()
        final = (await api.chat(chat_id))["messages"]
        assert [m["role"] for m in final] == ["user", "assistant"]
        assert final[-1]["parts"] == [{"type": "text", "text": "y" * 400 + "!"}]
