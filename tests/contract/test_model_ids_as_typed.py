"""Model ids as learners type them (issue 31): Ollama tags with ``:``, LM Studio and vLLM names
with ``/``, llama.cpp as an OpenAI-compatible address with any name — through the real adapter
to a server on 127.0.0.1; a model the server lacks is named with the server's list."""

from __future__ import annotations

import pytest
from studyhall.adapters.fakes.secrets import InMemorySecretStore
from studyhall.adapters.fakes.settings import InMemorySettingsStore
from studyhall.adapters.llm.litellm_model import LitellmChatModel
from studyhall.core.contracts.models import ModelRequest, StreamedText
from studyhall.core.contracts.settings import RoleModel, Settings
from studyhall.core.errors import ModelNotConfigured

from tests.support import model_replies as reply
from tests.support.model_server import model_server

# (typed id, server style, the path called, the name the server is asked for)
IDS = [
    ("ollama/llama3.2:3b", "ollama", "/api/chat", "llama3.2:3b"),
    ("ollama_chat/hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M", "ollama", "/api/chat",
     "hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M"),
    ("lm_studio/qwen/qwen3-4b", "openai", "/v1/chat/completions", "qwen/qwen3-4b"),
    ("hosted_vllm/meta-llama/Llama-3.2-3B-Instruct", "openai", "/v1/chat/completions",
     "meta-llama/Llama-3.2-3B-Instruct"),
    ("openai/SmolLM2-135M-Instruct.Q4_1.gguf", "openai", "/v1/chat/completions",
     "SmolLM2-135M-Instruct.Q4_1.gguf"),  # llama.cpp serves any name
    ("llamafile/any:name/here", "openai", "/v1/chat/completions", "any:name/here"),
]


def model_for(model_id: str, api_base: str) -> LitellmChatModel:
    settings = Settings(models={**Settings().models,
                                "teacher": RoleModel(model=model_id, api_base=api_base)})
    return LitellmChatModel(InMemorySettingsStore(settings), InMemorySecretStore(), None,
                            allow_network=False, backoff_base=0.0, max_attempts=1)


async def said(model: LitellmChatModel) -> str:
    events = [e async for e in model.stream(ModelRequest(
        role="teacher", messages=({"role": "user", "content": "hi"},)))]
    return "".join(e.text for e in events if isinstance(e, StreamedText))


@pytest.mark.parametrize(("model_id", "style", "path", "name"), IDS)
async def test_a_typed_id_reaches_its_server_with_the_name_whole(
        model_id: str, style: str, path: str, name: str) -> None:
    with model_server(style=style) as server:
        server.script(name, reply.text("hello from a local model"))
        assert await said(model_for(model_id, server.api_base)) == "hello from a local model"
        (call,) = server.chat_requests()
        assert (call.path, call.model) == (path, name)


@pytest.mark.parametrize(("style", "model_id"), [("ollama", "ollama/qwen3:8b"),
                                                 ("openai", "lm_studio/qwen/qwen3-8b")])
async def test_a_model_the_server_lacks_is_named_with_what_it_has(style: str,
                                                                  model_id: str) -> None:
    with model_server(style=style, models=("llama3.2:3b", "gemma3:1b")) as server:
        server.script("*", reply.fail(404, "model not found"))
        with pytest.raises(ModelNotConfigured) as failed:
            await said(model_for(model_id, server.api_base))
    message = str(failed.value)
    assert f"does not know the model '{model_id}'" in message
    assert message.endswith("The server has: llama3.2:3b, gemma3:1b.")


async def test_a_server_with_no_model_loaded_says_to_load_one() -> None:
    with model_server(style="openai") as server:
        server.script("*", reply.fail(404, "model not found"))
        with pytest.raises(ModelNotConfigured) as failed:
            await said(model_for("lm_studio/qwen/qwen3-8b", server.api_base))
    assert str(failed.value).endswith("The server lists no models: load one in it first.")
