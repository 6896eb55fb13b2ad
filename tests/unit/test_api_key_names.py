"""One rule names the key a model is called with and says whether it needs one: the litellm
adapter sends keys by it, Settings saves and asks for keys by it, the readiness check skips by it."""

from __future__ import annotations

from studyhall.core.contracts.api_keys import clean_key_name, key_name, needs_key, provider_of
from studyhall.core.contracts.settings import RoleModel
from studyhall.server.runtime.classroom.model_ready import missing_key


def test_a_hosted_model_is_keyed_by_its_provider_and_needs_the_key() -> None:
    assert provider_of("anthropic/claude-sonnet-4-5") == "anthropic"
    assert provider_of("OpenRouter/meta/llama") == "openrouter"
    assert provider_of("gpt-4.1-mini") is None  # only litellm can place it
    assert key_name("anthropic", None) == "anthropic"
    assert needs_key("anthropic", None)


def test_a_hosted_id_on_a_custom_server_is_keyed_by_the_address_and_tried_without_one() -> None:
    assert key_name("openai", "http://127.0.0.1:1234/v1") == "http://127.0.0.1:1234/v1"
    assert not needs_key("openai", "http://127.0.0.1:1234/v1")


def test_a_local_server_needs_no_key_but_is_sent_one_saved_under_its_provider() -> None:
    assert key_name("ollama", "http://127.0.0.1:11434") == "ollama"
    assert not needs_key("ollama", None) and not needs_key("ollama", "http://127.0.0.1:11434")


def test_a_key_saved_as_the_learner_typed_it_is_the_one_looked_up() -> None:
    # Settings saves under clean_key_name(what was typed); the adapter looks up key_name(...).
    assert clean_key_name(" Anthropic ") == key_name("anthropic", None)
    assert clean_key_name("HTTP://Box.local:1234/v1/") == key_name(
        "openai", "http://Box.local:1234/v1"
    )


def test_keys_still_needed_are_the_ones_a_call_could_not_go_without() -> None:
    hosted = RoleModel(model="groq/llama-3.1-8b-instant")
    custom = RoleModel(model="openai/qwen2.5-7b", api_base="http://127.0.0.1:1234/v1")
    local = RoleModel(model="ollama/llama3.2")
    unplaced = RoleModel(model="gpt-4.1-mini")
    assert missing_key(hosted, saved=[], env_providers=[]) == "groq"
    assert missing_key(hosted, saved=["groq"], env_providers=[]) is None
    assert missing_key(hosted, saved=[], env_providers=["groq"]) is None
    assert [missing_key(r, saved=[], env_providers=[]) for r in (custom, local, unplaced)] == [
        None, None, None
    ]
