"""Settings over HTTP: keys go into the secret store and never come back out; models per role
are checked before they are saved; the connection test says plainly what went wrong."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.support.server import api_client, make_config

KEY = "sk-live-0123456789abcdefWXYZ"


@pytest.fixture
def client(tmp_path: Path):
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"teacher": [{"text": "ok"}, {"error": "auth"}]}))
    with api_client(config=make_config(data_dir=tmp_path / "data", script_path=script)) as c:
        yield c


def test_a_saved_key_is_masked_and_never_returned(client):
    view = client.get("/api/settings").json()
    assert view["keys"] == [] and view["scripted"] is True
    assert "anthropic" in view["needed_keys"]  # the default teacher needs it
    saved = client.put("/api/settings/keys", json={"name": "Anthropic", "value": f"  {KEY} "})
    assert saved.status_code == 200
    assert saved.json()["keys"] == [{"name": "anthropic", "masked": "…WXYZ"}]
    assert "anthropic" not in saved.json()["needed_keys"]
    for response in (saved, client.get("/api/settings"), client.get("/api/openapi.json")):
        assert KEY not in response.text
    gone = client.request("DELETE", "/api/settings/keys", json={"name": "anthropic"})
    assert gone.json()["keys"] == []


@pytest.mark.parametrize("body, message", [
    ({"name": "openai", "value": "short"}, "does not look like an API key"),
    ({"name": "openai", "value": "sk-has a space-123"}, "does not look like an API key"),
    ({"name": "open ai!", "value": KEY}, "Name the key by its provider"),
    ({"name": "openai"}, "value"),
])
def test_bad_keys_are_refused_with_what_to_do(client, body, message):
    response = client.put("/api/settings/keys", json=body)
    assert response.status_code == 400 and message in response.json()["message"]
    assert KEY not in response.text
    assert client.get("/api/settings").json()["keys"] == []


def test_models_per_role_are_checked_then_saved(client):
    bad = client.put("/api/settings/models", json={"models": {
        "teacher": {"model": "ollama/llama3.2", "api_base": "file:///etc"}}})
    assert bad.status_code == 400 and "http(s) URL" in bad.json()["message"]
    unknown = client.put("/api/settings/models", json={"models": {"wizard": {"model": "x/y"}}})
    assert unknown.status_code == 400 and "Unknown role" in unknown.json()["message"]
    effort = client.put("/api/settings/models", json={"models": {
        "teacher": {"model": "x/y", "effort": "extreme"}}})
    assert effort.status_code == 400
    ok = client.put("/api/settings/models", json={"models": {
        "teacher": {"model": "ollama/llama3.2", "effort": "low",
                    "api_base": "http://localhost:11434/"}}})
    assert ok.status_code == 200
    teacher = next(r for r in ok.json()["roles"] if r["role"] == "teacher")
    assert teacher == {"role": "teacher", "model": "ollama/llama3.2", "effort": "low",
                       "api_base": "http://localhost:11434"}
    prober = next(r for r in ok.json()["roles"] if r["role"] == "prober")
    assert prober["model"].startswith("anthropic/")  # untouched


def test_keys_still_needed_are_only_those_a_call_cannot_go_without(client, monkeypatch):
    for name in [k for k in os.environ if k.endswith("_API_KEY")]:
        monkeypatch.delenv(name)
    server = "http://Box.local:1234/v1"
    view = client.put("/api/settings/models", json={"models": {
        "teacher": {"model": "openai/qwen2.5-7b", "api_base": server},  # tried without a key
        "prober": {"model": "ollama/llama3.2"},  # the learner's machine: no key
        "labeler": {"model": "groq/llama-3.1-8b-instant"}}}).json()
    assert "groq" in view["needed_keys"]
    assert not any(n.startswith("http") or n == "ollama" for n in view["needed_keys"])
    # A key for the server, saved under its address as typed, is kept under the name the
    # model call looks it up by: scheme and host case-free, the path's case kept.
    typed = f" {server.replace('http://Box.local', 'HTTP://BOX.LOCAL')}/ "
    saved = client.put("/api/settings/keys", json={"name": typed, "value": KEY})
    assert [k["name"] for k in saved.json()["keys"]] == ["http://box.local:1234/v1"]
    assert saved.json()["key_servers"] == ["http://box.local:1234/v1"]
    other = client.put("/api/settings/keys", json={"name": "http://box.local:1234/V1",
                                                   "value": KEY[::-1]})
    assert [k["name"] for k in other.json()["keys"]] == [  # another path: another key
        "http://box.local:1234/V1", "http://box.local:1234/v1"]
    gone = client.request("DELETE", "/api/settings/keys", json={"name": f"{server}/"})
    assert [k["name"] for k in gone.json()["keys"]] == ["http://box.local:1234/V1"]


def test_timeouts_are_set_per_kind_of_server_and_shown_per_role(client):
    view = client.get("/api/settings").json()
    assert view["timeouts"] == {"hosted_s": 180, "local_s": 900}
    client.put("/api/settings/models", json={"models": {
        "teacher": {"model": "openai/qwen", "api_base": "http://127.0.0.1:1234/v1"}}})
    saved = client.put("/api/settings/timeouts", json={"local_s": 1800}).json()
    assert saved["timeouts"] == {"hosted_s": 180, "local_s": 1800}
    refused = client.put("/api/settings/timeouts", json={"hosted_s": 0})
    assert refused.status_code == 400
    assert client.get("/api/settings").json()["timeouts"]["hosted_s"] == 180


def test_connection_test_reports_success_then_a_refused_key(client):
    first = client.post("/api/settings/test", json={"role": "teacher"}).json()
    assert first["ok"] is True and first["reply"] == "ok" and first["ms"] >= 0
    second = client.post("/api/settings/test", json={"role": "teacher"}).json()
    assert second["ok"] is False and second["kind"] == "auth"
    assert "teacher" in second["message"].lower() or "key" in second["message"].lower()
    assert client.post("/api/settings/test", json={"role": "nobody"}).status_code == 400
