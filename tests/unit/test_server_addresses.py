"""Server addresses: one normal form (the name a server's key is saved under), how messages name
a server, which servers are on this machine (the only ones tests may call) or near it (where a
model may take minutes to load), and the order a call's key is looked up in."""

from __future__ import annotations

import pytest
from studyhall.core.contracts.api_keys import clean_key_name, key_names
from studyhall.core.contracts.servers import (
    is_loopback,
    is_near,
    normal_address,
    server_label,
    wait_seconds,
)
from studyhall.core.contracts.settings import RoleModel, Timeouts


@pytest.mark.parametrize("typed, normal", [
    ("http://127.0.0.1:1234/v1", "http://127.0.0.1:1234/v1"),
    ("HTTP://Box.Local:1234/v1/", "http://box.local:1234/v1"),
    ("  http://box:1234/V1//  ", "http://box:1234/V1"),  # the path keeps its case
    ("https://api.example.com:443/openai/", "https://api.example.com/openai"),
    ("http://user:sk-secret@box:80/v1", "http://box/v1"),  # no credentials, no default port
    ("http://[::1]:11434", "http://[::1]:11434"),
    ("ftp://box/v1", None),
    ("http://box:notaport", None),
    ("openai", None),
])
def test_an_address_has_one_normal_form(typed: str, normal: str | None) -> None:
    assert normal_address(typed) == normal


def test_keys_for_two_paths_of_one_server_stay_two_and_providers_fold_case() -> None:
    assert clean_key_name("http://box:1234/V1/") != clean_key_name("http://box:1234/v1")
    assert clean_key_name(" OpenRouter ") == "openrouter"


def test_a_call_looks_its_key_up_by_address_and_only_a_local_provider_by_name() -> None:
    assert key_names("openai", "http://Box:1234/v1/") == ("http://box:1234/v1",)  # never "openai"
    # an address saved whole in lower case before names were normalised is still found
    assert key_names("openai", "http://Box:1234/V1") == ("http://box:1234/V1", "http://box:1234/v1")
    assert key_names("ollama", "http://gpu-box:11434") == ("http://gpu-box:11434", "ollama")
    assert key_names("anthropic", None) == ("anthropic",)


def test_servers_are_named_as_typed_and_placed() -> None:
    assert server_label("http://127.0.0.1:1234/v1") == "127.0.0.1:1234"
    assert server_label("https://api.together.xyz/v1") == "api.together.xyz"
    loopback = ["http://127.0.0.1:1234", "http://127.8.9.1", "http://localhost:11434",
                "http://[::1]:8080"]
    assert all(is_loopback(u) for u in loopback)
    assert not any(is_loopback(u) for u in ["http://192.168.1.5:1234", "http://localhost.evil.com",
                                            "http://127.0.0.1.nip.io", "https://api.openai.com"])
    assert all(is_near(u) for u in [*loopback, "http://192.168.1.5:1234", "http://mybox.local:1"])
    assert not is_near("https://api.openai.com/v1")


def test_a_model_near_the_learner_waits_the_local_timeout() -> None:
    timeouts = Timeouts(hosted_s=60, local_s=1200)
    assert wait_seconds(RoleModel(model="ollama/llama3.2"), timeouts) == 1200
    assert wait_seconds(RoleModel(model="openai/q", api_base="http://127.0.0.1:1/v1"), timeouts) == 1200
    assert wait_seconds(RoleModel(model="openai/gpt-4.1-mini"), timeouts) == 60
    assert wait_seconds(RoleModel(model="ollama/x", api_base="https://ollama.example.com"),
                        timeouts) == 60
