"""The provider table (core.contracts.providers): one choice puts every role on one provider,
with ids litellm's bundled map knows; a local server gets the model the learner names, at an
address near this machine; the transcriber is never given a chat model."""

from __future__ import annotations

import json
import re
from pathlib import Path

import litellm
import pytest
from studyhall.core.contracts.api_keys import needs_key, provider_of
from studyhall.core.contracts.providers import (
    CHAT_ROLES,
    PROVIDER_CHOICES,
    PROVIDER_IDS,
    ROLE_TIERS,
    chosen_provider,
    local_address,
    local_model_id,
    provider_choice,
    with_provider,
)
from studyhall.core.contracts.settings import MODEL_ROLES, Settings
from studyhall.core.errors import InvalidInput

# litellm's bundled map, read from the installed package: never the network.
MODEL_MAP = json.loads((Path(litellm.__file__).parent /
                        "model_prices_and_context_window_backup.json").read_text())
HOSTED = [c for c in PROVIDER_CHOICES if not c.local]
LOCAL = [c for c in PROVIDER_CHOICES if c.local]


def _mode(model: str) -> str | None:
    entry = MODEL_MAP.get(model) or MODEL_MAP.get(model.partition("/")[2])
    return entry.get("mode") if isinstance(entry, dict) else None


def test_the_table_has_every_provider_the_issue_names():
    assert set(PROVIDER_IDS) == {c.id for c in PROVIDER_CHOICES} == {
        "openai", "anthropic", "gemini", "openrouter", "mistral", "groq",
        "ollama", "lm_studio", "llamacpp"}
    assert set(ROLE_TIERS) == set(CHAT_ROLES) == set(MODEL_ROLES) - {"transcriber"}
    assert ROLE_TIERS["prober"][0] == ROLE_TIERS["teacher"][0] == "strong"
    assert {ROLE_TIERS[r][0] for r in ("extractor", "auditor", "labeler")} == {"cheap"}


@pytest.mark.parametrize("choice", HOSTED, ids=lambda c: c.id)
def test_hosted_ids_are_ones_litellm_knows(choice):
    for model in (choice.strong, choice.cheap):
        assert model and litellm.get_llm_provider(model)[1] == choice.id
        if choice.id == "openrouter":  # passed through: the model is the one litellm maps
            upstream = model.partition("/")[2].replace("4.5", "4-5").partition("/")[2]
            assert _mode(upstream) == "chat", upstream
        else:
            assert _mode(model) == "chat", model
    if choice.transcriber:
        assert _mode(choice.transcriber) == "audio_transcription", choice.transcriber


@pytest.mark.parametrize("choice", HOSTED, ids=lambda c: c.id)
def test_a_hosted_provider_sets_every_role_and_needs_only_its_own_key(choice):
    settings = with_provider(Settings(), choice)
    for role in CHAT_ROLES:
        model = settings.model_for(role)
        tier = ROLE_TIERS[role][0]
        assert model.model == (choice.strong if tier == "strong" else choice.cheap), role
        assert model.api_base is None
    keys = {provider_of(settings.model_for(r).model) for r in CHAT_ROLES}
    if choice.transcriber:
        assert settings.model_for("transcriber").model == choice.transcriber
        assert settings.transcription_off is None
        keys.add(provider_of(choice.transcriber))
    else:
        assert settings.transcription_off and choice.label in settings.transcription_off
    assert keys == {choice.id}  # one key is enough
    assert chosen_provider(settings) == choice.id


@pytest.mark.parametrize("choice", LOCAL, ids=lambda c: c.id)
def test_a_local_server_runs_the_named_model_for_every_role_and_needs_no_key(choice):
    model = local_model_id(choice, " llama3.2 ")
    settings = with_provider(Settings(), choice, model, choice.address)
    for role in CHAT_ROLES:
        chosen = settings.model_for(role)
        assert (chosen.model, chosen.api_base) == (f"{choice.prefix}/llama3.2", choice.address)
        assert not needs_key(choice.prefix, chosen.api_base)
        assert litellm.get_llm_provider(chosen.model)[1] == choice.prefix
    assert settings.transcription_off and "no speech-to-text model" in settings.transcription_off
    assert chosen_provider(settings) == choice.id


@pytest.mark.parametrize("choice", PROVIDER_CHOICES, ids=lambda c: c.id)
def test_the_transcriber_is_never_set_to_a_chat_model(choice):
    before = Settings().model_for("transcriber")
    model = local_model_id(choice, "llama3.2") if choice.local else None
    settings = with_provider(Settings(), choice, model, choice.address)
    transcriber = settings.model_for("transcriber")
    assert _mode(transcriber.model) == "audio_transcription"
    if not choice.transcriber:  # off, with the reason: the saved one is left as it was
        assert transcriber == before and settings.transcription_off


def test_a_typed_prefix_is_not_doubled():
    ollama = provider_choice("ollama")
    assert local_model_id(ollama, "ollama/llama3.2") == "ollama_chat/llama3.2"
    assert local_model_id(ollama, "ollama_chat/qwen2.5:7b") == "ollama_chat/qwen2.5:7b"


@pytest.mark.parametrize("typed, message", [
    (None, "Type the name of the model Ollama serves"),
    ("   ", "Type the name of the model Ollama serves"),
    ("ollama/", "Type the name of the model Ollama serves"),
    ("llama 3.2", "no spaces"),
    ("x" * 201, "at most 200"),
])
def test_the_local_model_name_is_checked(typed, message):
    with pytest.raises(InvalidInput, match=re.escape(message)):
        local_model_id(provider_choice("ollama"), typed)


@pytest.mark.parametrize("typed, message", [
    ("localhost:11434", "not an http(s) URL"),
    ("ftp://127.0.0.1", "not an http(s) URL"),
    ("http://", "not an http(s) URL"),
    ("https://api.example.com/v1", "this computer or your local network"),
    ("http://8.8.8.8:11434", "this computer or your local network"),
])
def test_the_local_address_must_be_an_http_url_on_this_machine_or_the_lan(typed, message):
    with pytest.raises(InvalidInput, match=re.escape(message)):
        local_address(provider_choice("ollama"), typed)


def test_near_addresses_are_taken_and_blank_is_the_usual_one():
    lm = provider_choice("lm_studio")
    assert local_address(lm, "").url == "http://localhost:1234/v1"
    assert local_address(lm, " http://192.168.1.20:1234/v1/ ").url == "http://192.168.1.20:1234/v1"
    assert local_address(lm, "http://box.local:1234/v1").url == "http://box.local:1234/v1"


def test_an_unknown_provider_is_named_with_the_choices():
    with pytest.raises(InvalidInput, match="Choose one of: openai, anthropic"):
        provider_choice("skynet")


def test_mixed_roles_have_no_single_provider():
    assert chosen_provider(Settings()) is None  # the default: Anthropic strong, OpenAI cheap
