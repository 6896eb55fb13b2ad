"""Model ids with ``:`` and ``/`` as learners type them pass Settings whole (issue 31): the
roles' form and the one-step provider choice."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.server import api_client, make_config

TYPED = {
    "teacher": ("ollama/llama3.2:3b", None),
    "prober": ("ollama_chat/hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M", None),
    "extractor": ("lm_studio/qwen/qwen3-4b", None),
    "auditor": ("hosted_vllm/meta-llama/Llama-3.2-3B-Instruct", "http://127.0.0.1:8000/v1"),
    "labeler": ("openai/SmolLM2-135M-Instruct.Q4_1.gguf", "http://127.0.0.1:8080/v1"),
}


@pytest.fixture
def client(tmp_path: Path):
    with api_client(config=make_config(data_dir=tmp_path / "data")) as c:
        yield c


def test_role_models_keep_their_tags_and_slashes(client) -> None:
    body = {"models": {role: {"model": model, **({"api_base": base} if base else {})}
                       for role, (model, base) in TYPED.items()}}
    r = client.put("/api/settings/models", json=body)
    assert r.status_code == 200, r.text
    shown = {row["role"]: (row["model"], row["api_base"]) for row in r.json()["roles"]}
    for role, expected in TYPED.items():
        assert shown[role] == expected, role


@pytest.mark.parametrize(("provider", "typed", "saved"), [
    ("ollama", "llama3.2:3b", "ollama_chat/llama3.2:3b"),
    ("ollama", "ollama/llama3.2:3b", "ollama_chat/llama3.2:3b"),
    ("ollama", "hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M",
     "ollama_chat/hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M"),
    ("lm_studio", "qwen/qwen3-4b", "lm_studio/qwen/qwen3-4b"),
    ("llamacpp", "SmolLM2-135M-Instruct.Q4_1.gguf", "llamafile/SmolLM2-135M-Instruct.Q4_1.gguf"),
])
def test_the_provider_step_keeps_a_local_models_name_whole(client, provider: str, typed: str,
                                                            saved: str) -> None:
    r = client.put("/api/settings/provider", json={"provider": provider, "model": typed})
    assert r.status_code == 200, r.text
    models = {row["role"]: row["model"] for row in r.json()["roles"]}
    assert models["teacher"] == saved and models["extractor"] == saved
