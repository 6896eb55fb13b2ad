"""LitellmChatModel against a scripted server on 127.0.0.1 (real HTTP, no seam): with real calls
off only loopback is reachable; errors keep the server's reason (keys masked) and name the
server as configured; Retry-After is honoured; a structured request finds the format the server
takes, once."""

from __future__ import annotations

import socket
from typing import Any

import pytest
from studyhall.adapters.fakes.secrets import InMemorySecretStore
from studyhall.adapters.fakes.settings import InMemorySettingsStore
from studyhall.adapters.llm.litellm_model import LitellmChatModel
from studyhall.core.contracts.models import ModelRequest, StreamedText
from studyhall.core.contracts.settings import RoleModel, Settings
from studyhall.core.errors import (
    ModelBadRequest,
    ModelNetworkDisabled,
    ModelProviderDown,
    ModelStreamCut,
)

from tests.support import model_replies as reply
from tests.support.model_server import model_server

KEY = "sk-local-0123456789abcdefXYZ"
SCHEMA = {"title": "answer", "type": "object", "properties": {"ok": {"type": "boolean"}}}


def closed_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Sleeps:
    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)


def model_at(api_base: str, keys: dict[str, str] | None = None, **options: Any
             ) -> tuple[LitellmChatModel, Sleeps]:
    settings = Settings(models={**Settings().models,
                                "teacher": RoleModel(model="openai/teacher", api_base=api_base)})
    sleeps = Sleeps()
    model = LitellmChatModel(InMemorySettingsStore(settings), InMemorySecretStore(keys or {}),
                             None, allow_network=False, backoff_base=0.0, sleep=sleeps,
                             **options)
    return model, sleeps


async def text_of(model: LitellmChatModel, **request: Any) -> str:
    events = [e async for e in model.stream(ModelRequest(
        role="teacher", messages=({"role": "user", "content": "hi"},), **request))]
    return "".join(e.text for e in events if isinstance(e, StreamedText))


@pytest.mark.parametrize("address", ["http://192.168.1.5:1234/v1", "http://localhost.evil.com/v1",
                                     "https://api.openai.com/v1"])
async def test_with_real_calls_off_only_a_loopback_server_is_called(address: str) -> None:
    with model_server() as server:
        server.script("teacher", reply.text("local hello"))
        model, _ = model_at(server.api_base)
        assert await text_of(model) == "local hello"
        model, _ = model_at(address)
        with pytest.raises(ModelNetworkDisabled):
            await text_of(model)


async def test_a_server_error_keeps_its_reason_and_an_unreachable_one_says_start_it() -> None:
    with model_server() as server:
        server.script("teacher", *[reply.fail(500, "model failed to load")] * 2)
        model, _ = model_at(server.api_base, max_attempts=2)
        with pytest.raises(ModelProviderDown) as failed:
            await text_of(model)
    assert str(failed.value) == (
        f"Your server at 127.0.0.1:{server.port} answered the teacher with an error (500: model "
        f"failed to load) after 2 tries. Check the server's window or log (the model may have "
        f"failed to load), then try again.")
    port = closed_port()
    model, _ = model_at(f"http://127.0.0.1:{port}/v1", max_attempts=1)
    with pytest.raises(ModelProviderDown) as down:
        await text_of(model)
    assert str(down.value) == (
        f"Nothing answered at http://127.0.0.1:{port}/v1 for the teacher (openai/teacher). Start "
        f"your local model server (Ollama, LM Studio, ...) or fix its address in Settings → "
        f"Where your models run.")


async def test_a_reason_that_echoes_the_key_is_masked() -> None:
    with model_server() as server:
        server.script("teacher", reply.fail(400, f"bad header: Bearer {KEY} (key {KEY})"))
        address = server.api_base
        model, _ = model_at(address, keys={address: KEY})
        with pytest.raises(ModelBadRequest) as refused:
            await text_of(model)
        assert server.requests[-1].key == KEY  # it went to its own server, and only there
    assert KEY not in str(refused.value) and "bad header" in str(refused.value)


async def test_retry_after_is_honoured_and_a_cut_after_text_is_not_retried() -> None:
    with model_server() as server:
        server.script("teacher", reply.fail(429, "busy", retry_after=1.5), reply.text("now"),
                      reply.cut_text("Half of it and", after=6))
        model, sleeps = model_at(server.api_base)
        assert await text_of(model) == "now" and sleeps.delays == [1.5]
        with pytest.raises(ModelStreamCut) as cut:
            await text_of(model)
        assert "broke off mid-answer" in str(cut.value) and len(server.chat_requests()) == 3


async def test_a_structured_request_finds_the_format_the_server_takes_once() -> None:
    with model_server(refuse_formats={"json_schema", "json_object"}) as server:
        server.script("teacher", reply.answer_json({"ok": True}), reply.answer_json({"ok": True}))
        model, _ = model_at(server.api_base)
        assert await text_of(model, response_schema=SCHEMA) == '{"ok": true}'
        assert await text_of(model, response_schema=SCHEMA) == '{"ok": true}'
        formats = [s.response_format for s in server.chat_requests()]
        assert formats == ["json_schema", "json_object", None, None]
        plain = server.chat_requests()[-1].body["messages"]
        assert plain[0]["role"] == "system" and '"ok"' in plain[0]["content"]
