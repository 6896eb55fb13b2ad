"""PUT /api/settings/provider over HTTP: one choice puts every role on one provider, so one key
is enough (needed_keys names just that provider, then nothing); the local-server form refuses
what is missing or wrong with a message; the route is in the OpenAPI document."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from studyhall.core.contracts.providers import PROVIDER_CHOICES, provider_choice, with_provider
from studyhall.core.library.sources.material_import import CAPTIONS_ACTION, TRANSCRIBER_ACTION
from studyhall.server.app import build_runtime, build_services
from studyhall.server.runtime.classroom.model_ready import no_model_reason, transcriber_action

from tests.support.server import api_client, make_config

KEY = "sk-live-0123456789abcdefWXYZ"
HOSTED = [c for c in PROVIDER_CHOICES if not c.local]
LOCAL = [c for c in PROVIDER_CHOICES if c.local]


@pytest.fixture
def client(tmp_path: Path, monkeypatch):
    for name in [k for k in os.environ if k.endswith("_API_KEY")]:
        monkeypatch.delenv(name)
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"teacher": [{"text": "ok"}]}))
    with api_client(config=make_config(data_dir=tmp_path / "data", script_path=script)) as c:
        yield c


def _roles(view):
    return {r["role"]: r for r in view["roles"]}


@pytest.mark.parametrize("choice", HOSTED, ids=lambda c: c.id)
def test_one_hosted_provider_then_its_one_key_leaves_nothing_needed(client, choice):
    assert client.get("/api/settings").json()["provider"] is None  # the mixed default
    view = client.put("/api/settings/provider", json={"provider": choice.id})
    assert view.status_code == 200, view.text
    view = view.json()
    assert view["needed_keys"] == [choice.id]
    assert view["provider"] == choice.id
    roles = _roles(view)
    assert roles["teacher"]["model"] == roles["prober"]["model"] == choice.strong
    assert {roles[r]["model"] for r in ("extractor", "auditor", "labeler")} == {choice.cheap}
    assert all(r["model"].startswith(f"{choice.id}/") for n, r in roles.items()
               if n != "transcriber" or choice.transcriber)
    assert view["transcription_off"] == choice.no_transcriber
    saved = client.put("/api/settings/keys", json={"name": choice.id, "value": KEY}).json()
    assert saved["needed_keys"] == []


@pytest.mark.parametrize("choice", LOCAL, ids=lambda c: c.id)
def test_a_local_server_needs_no_key_and_turns_transcription_off(client, choice):
    view = client.put("/api/settings/provider", json={
        "provider": choice.id, "model": "qwen2.5:7b", "api_base": "http://127.0.0.1:9999/v1/"})
    assert view.status_code == 200, view.text
    view = view.json()
    assert view["needed_keys"] == [] and view["provider"] == choice.id
    for name, role in _roles(view).items():
        if name == "transcriber":
            assert role["model"] == "openai/whisper-1"  # left as it was: never a chat model
        else:
            assert (role["model"], role["api_base"]) == (
                f"{choice.prefix}/qwen2.5:7b", "http://127.0.0.1:9999/v1")
    assert "no speech-to-text model" in view["transcription_off"]


def test_a_blank_address_is_the_servers_usual_one(client):
    view = client.put("/api/settings/provider",
                      json={"provider": "ollama", "model": "llama3.2", "api_base": "  "}).json()
    assert _roles(view)["teacher"] == {"role": "teacher", "model": "ollama_chat/llama3.2",
                                       "effort": None, "api_base": "http://localhost:11434"}


@pytest.mark.parametrize("body, message", [
    ({"provider": "ollama"}, "Type the name of the model Ollama serves"),
    ({"provider": "lm_studio", "model": "  "}, "Type the name of the model LM Studio serves"),
    ({"provider": "ollama", "model": "llama3.2", "api_base": "localhost:11434"},
     "not an http(s) URL"),
    ({"provider": "ollama", "model": "llama3.2", "api_base": "https://api.example.com"},
     "on this computer or your local network"),
    ({"provider": "ollama", "model": "two words"}, "no spaces"),
    ({"provider": "openai", "model": "gpt-4.1"}, "set one role's model or server under Advanced"),
    ({"provider": "skynet"}, "provider"),
    ({}, "provider"),
])
def test_the_local_form_refuses_what_is_missing_or_wrong_and_changes_nothing(client, body,
                                                                              message):
    before = client.get("/api/settings").json()
    refused = client.put("/api/settings/provider", json=body)
    assert refused.status_code == 400, refused.text
    assert refused.json()["error"] and message in refused.json()["message"]
    assert client.get("/api/settings").json()["roles"] == before["roles"]


def test_credentials_typed_into_the_address_become_its_key(client):
    view = client.put("/api/settings/provider", json={
        "provider": "lm_studio", "model": "qwen", "api_base": f"http://me:{KEY}@10.0.0.5:1234/v1"})
    assert view.status_code == 200 and KEY not in view.text
    assert _roles(view.json())["teacher"]["api_base"] == "http://10.0.0.5:1234/v1"
    assert [k["name"] for k in view.json()["keys"]] == ["http://10.0.0.5:1234/v1"]


def test_saving_a_transcriber_model_turns_transcription_back_on(client):
    off = client.put("/api/settings/provider", json={"provider": "anthropic"}).json()
    assert off["transcription_off"] and "openai" not in off["needed_keys"]
    # Advanced: another role saved leaves it off; the transcriber's own model turns it on.
    client.put("/api/settings/models", json={"models": {"labeler": {"model": "anthropic/x"}}})
    assert client.get("/api/settings").json()["transcription_off"]
    on = client.put("/api/settings/models", json={"models": {
        "transcriber": {"model": "openai/whisper-1"}}}).json()
    assert on["transcription_off"] is None and "openai" in on["needed_keys"]


def test_the_route_is_in_the_openapi_document(client):
    doc = client.get("/api/openapi.json").json()
    put = doc["paths"]["/api/settings/provider"]["put"]
    schema = put["requestBody"]["content"]["application/json"]["schema"]
    assert schema["required"] == ["provider"]
    assert set(schema["properties"]["provider"]["enum"]) == {c.id for c in PROVIDER_CHOICES}
    assert set(schema["properties"]) == {"provider", "model", "api_base"}
    assert "400" in put["responses"]


def test_with_transcription_off_the_import_is_told_why_without_a_call(tmp_path, monkeypatch):
    for name in [k for k in os.environ if k.endswith("_API_KEY")]:
        monkeypatch.delenv(name)
    services = build_services(make_config(data_dir=tmp_path / "data"))
    services.secret_store.set("anthropic", KEY)
    services.settings_store.update(lambda s: with_provider(s, provider_choice("anthropic")))
    why = no_model_reason(services, "transcriber")
    assert why is not None and why.startswith("Transcription is off: Anthropic has no")
    assert no_model_reason(services, "extractor") is None  # the one key serves the rest


async def test_with_transcription_off_a_recording_asks_for_captions_not_a_key(tmp_path, monkeypatch):
    # A key would not help: the chosen provider has no speech-to-text. The lecture row says so.
    for name in [k for k in os.environ if k.endswith("_API_KEY")]:
        monkeypatch.delenv(name)
    services = build_services(make_config(data_dir=tmp_path / "data"))
    assert transcriber_action(services) == TRANSCRIBER_ACTION  # no provider chosen yet: a key
    services.secret_store.set("anthropic", KEY)
    services.settings_store.update(lambda s: with_provider(s, provider_choice("anthropic")))
    assert transcriber_action(services) == CAPTIONS_ACTION
    course = tmp_path / "Course"
    course.mkdir()
    (course / "Lecture 1.mp4").write_bytes(b"\x00\x00\x00\x18ftypmp42")
    report = await build_runtime(services).library.index_material(str(course))
    assert report.needs_transcription == ["Lecture 1.mp4"]
    [lecture] = [x for x in services.source_store.list() if x.path == "Lecture 1.mp4"]
    assert lecture.status == "needs_transcription" and lecture.action == CAPTIONS_ACTION
    assert lecture.reason is not None and lecture.reason.startswith("Transcription is off")
