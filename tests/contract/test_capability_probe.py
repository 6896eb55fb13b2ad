"""The capability probe against each server's own answers (httpx.MockTransport): llama.cpp's
/props, Ollama's /api/show, LM Studio's /api/v0, a generic server's tiny tool call; the cache in
the data folder; what it never asks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from studyhall.adapters.fakes.secrets import InMemorySecretStore
from studyhall.adapters.llm.capability_probe import NO_TOOLS, HttpCapabilityProbe
from studyhall.core.contracts.model_capabilities import UNKNOWN

Routes = dict[tuple[str, str], tuple[int, Any]]


class Server:
    """Answers (method, path) from a table; records every request."""

    def __init__(self, routes: Routes) -> None:
        self.routes = routes
        self.seen: list[tuple[str, str, Any]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content) if request.content else None
        self.seen.append((request.method, request.url.path, body))
        status, value = self.routes.get((request.method, request.url.path), (404, {"error": "no"}))
        return httpx.Response(status, json=value)


def probe(tmp_path: Path, server: Server, **options: Any) -> HttpCapabilityProbe:
    return HttpCapabilityProbe(tmp_path / "caps.json", InMemorySecretStore(),
                               allow_network=options.get("allow_network", False),
                               scripted=options.get("scripted", False),
                               transport=httpx.MockTransport(server))


LLAMA_PROPS = {"default_generation_settings": {"n_ctx": 8192},
               "chat_template_caps": {"supports_tools": False, "supports_tool_calls": False}}


async def test_llama_cpp_props_give_context_and_no_tools(tmp_path: Path) -> None:
    server = Server({("GET", "/props"): (200, LLAMA_PROPS)})
    caps = await probe(tmp_path, server).capabilities("openai/smollm2", "http://127.0.0.1:8080/v1")
    assert (caps.tools, caps.json_schema, caps.context_tokens) == (False, True, 8192)
    assert caps.note == NO_TOOLS
    assert all(method == "GET" for method, _, _ in server.seen)  # no model call for that


async def test_llama_cpp_template_with_tools_is_tried_once_when_checked(tmp_path: Path) -> None:
    props = {**LLAMA_PROPS, "chat_template_caps": {"supports_tool_calls": True}}
    text_reply = {"choices": [{"message": {"role": "assistant", "content": "ping!"}}]}
    server = Server({("GET", "/props"): (200, props),
                     ("POST", "/v1/chat/completions"): (200, text_reply)})
    p = probe(tmp_path, server)
    assert (await p.capabilities("openai/x", "http://127.0.0.1:8080/v1")).tools is True
    checked = await p.capabilities("openai/x", "http://127.0.0.1:8080/v1", check=True)
    assert checked.tools is False  # the template takes tools; the model only printed text
    call = next(body for method, _, body in server.seen if method == "POST")
    assert call["tool_choice"] == "required" and call["tools"][0]["function"]["name"] == "ping"
    assert call["model"] == "x" and call["max_tokens"] <= 64


async def test_ollama_show_names_tools_and_num_ctx(tmp_path: Path) -> None:
    shown = {"capabilities": ["completion", "tools"], "parameters": "stop \"<|eot|>\"\nnum_ctx 16384",
             "model_info": {"llama.context_length": 131072}}
    server = Server({("POST", "/api/show"): (200, shown)})
    caps = await probe(tmp_path, server).capabilities("ollama/llama3.2:3b", None)
    assert (caps.tools, caps.json_schema, caps.context_tokens, caps.note) == (True, True, 16384, "")
    assert server.seen[0][2] == {"model": "llama3.2:3b"}  # the tag kept whole


async def test_ollama_without_tools_uses_the_models_own_context(tmp_path: Path) -> None:
    shown = {"capabilities": ["completion"], "model_info": {"gemma3.context_length": 8192}}
    server = Server({("POST", "/api/show"): (200, shown)})
    caps = await probe(tmp_path, server).capabilities("ollama_chat/gemma3:1b",
                                                      "http://localhost:11434")
    assert (caps.tools, caps.context_tokens, caps.note) == (False, 8192, NO_TOOLS)


async def test_a_model_the_server_lacks_is_named_with_the_servers_list(tmp_path: Path) -> None:
    server = Server({("POST", "/api/show"): (404, {"error": "model 'qwen3' not found"}),
                     ("GET", "/api/tags"): (200, {"models": [{"name": "llama3.2:3b"},
                                                             {"name": "gemma3:1b"}]})})
    caps = await probe(tmp_path, server).capabilities("ollama/qwen3", None)
    assert caps.tools is None
    assert "no model 'qwen3'" in caps.note and "llama3.2:3b, gemma3:1b" in caps.note


async def test_lm_studio_rest_api_gives_tool_use_and_loaded_context(tmp_path: Path) -> None:
    model = {"id": "qwen/qwen3-4b", "capabilities": ["tool_use"], "loaded_context_length": 4096}
    server = Server({("GET", "/api/v0/models/qwen/qwen3-4b"): (200, model),
                     ("GET", "/v1/models"): (200, {"data": [{"id": "qwen/qwen3-4b"}]})})
    caps = await probe(tmp_path, server).capabilities("lm_studio/qwen/qwen3-4b", None)
    assert (caps.tools, caps.json_schema, caps.context_tokens) == (True, True, 4096)


async def test_generic_server_tool_call_test_only_when_checked(tmp_path: Path) -> None:
    called = {"choices": [{"message": {"tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "ping", "arguments": "{}"}}]}}]}
    server = Server({("GET", "/v1/models"): (200, {"data": [{"id": "m", "max_model_len": 32768}]}),
                     ("POST", "/v1/chat/completions"): (200, called)})
    p = probe(tmp_path, server)
    looked = await p.capabilities("hosted_vllm/m", "http://127.0.0.1:8000/v1")
    assert looked.tools is None and looked.context_tokens == 32768
    assert not [s for s in server.seen if s[0] == "POST"]  # a lookup never calls the model
    checked = await p.capabilities("hosted_vllm/m", "http://127.0.0.1:8000/v1", check=True)
    assert checked.tools is True


async def test_a_server_that_refuses_tools_cannot_call_them(tmp_path: Path) -> None:
    server = Server({("POST", "/v1/chat/completions"): (400, {"error": "tools not supported"})})
    caps = await probe(tmp_path, server).capabilities("openai/m", "http://127.0.0.1:9/v1",
                                                      check=True)
    assert caps.tools is False and caps.note == NO_TOOLS


async def test_answers_are_cached_per_address_and_model(tmp_path: Path) -> None:
    server = Server({("GET", "/props"): (200, LLAMA_PROPS)})
    first = await probe(tmp_path, server).capabilities("openai/a", "http://127.0.0.1:8080/v1/")
    asked = len(server.seen)
    again = await probe(tmp_path, server).capabilities("openai/a", "HTTP://127.0.0.1:8080/v1")
    assert again == first and len(server.seen) == asked  # a new probe read it from the file
    await probe(tmp_path, server).capabilities("openai/b", "http://127.0.0.1:8080/v1")
    assert len(server.seen) > asked  # another model is asked for itself


async def test_forgotten_pairs_are_asked_again(tmp_path: Path) -> None:
    server = Server({("GET", "/props"): (200, LLAMA_PROPS)})
    p = probe(tmp_path, server)
    await p.capabilities("openai/a", "http://127.0.0.1:8080/v1")
    await p.forget_all_but({("openai/b", "http://127.0.0.1:8080/v1")})
    asked = len(server.seen)
    await p.capabilities("openai/a", "http://127.0.0.1:8080/v1")
    assert len(server.seen) > asked


async def test_a_broken_cache_file_is_ignored_and_replaced(tmp_path: Path) -> None:
    (tmp_path / "caps.json").write_text("{not json")
    server = Server({("GET", "/props"): (200, LLAMA_PROPS)})
    caps = await probe(tmp_path, server).capabilities("openai/a", "http://127.0.0.1:8080/v1")
    assert caps.context_tokens == 8192
    assert json.loads((tmp_path / "caps.json").read_text())["version"] == 1
    entry = {"version": 1, "entries": {"http://127.0.0.1:8080/v1|openai/a": {"tools": "yes"}}}
    (tmp_path / "caps.json").write_text(json.dumps(entry))  # a hand-edited bad value
    again = await probe(tmp_path, server).capabilities("openai/a", "http://127.0.0.1:8080/v1")
    assert again.tools is False


async def test_unreachable_server_says_so_and_is_not_cached(tmp_path: Path) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    p = HttpCapabilityProbe(tmp_path / "caps.json", InMemorySecretStore(), allow_network=False,
                            scripted=False, transport=httpx.MockTransport(refuse))
    caps = await p.capabilities("ollama/llama3.2", None)
    assert caps.tools is None and "Nothing answered at localhost:11434" in caps.note
    assert not (tmp_path / "caps.json").exists()


@pytest.mark.parametrize(("model", "base", "scripted"), [
    ("anthropic/claude-sonnet-4-5", None, False),  # a hosted API: not probed
    ("openai/m", "http://192.168.1.20:8080/v1", False),  # real calls off: loopback only
    ("ollama/llama3.2", None, True),  # a scripted run never leaves the process
])
async def test_what_is_never_asked(tmp_path: Path, model: str, base: str | None,
                                   scripted: bool) -> None:
    server = Server({})
    caps = await probe(tmp_path, server, scripted=scripted).capabilities(model, base, check=True)
    assert caps == UNKNOWN and server.seen == []
