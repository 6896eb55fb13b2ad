"""Settings over HTTP: keys go into the secret store and never come back out; models per role
are checked before they are saved; the connection test says plainly what went wrong."""

from __future__ import annotations

import json
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


def test_connection_test_reports_success_then_a_refused_key(client):
    first = client.post("/api/settings/test", json={"role": "teacher"}).json()
    assert first["ok"] is True and first["reply"] == "ok" and first["ms"] >= 0
    second = client.post("/api/settings/test", json={"role": "teacher"}).json()
    assert second["ok"] is False and second["kind"] == "auth"
    assert "teacher" in second["message"].lower() or "key" in second["message"].lower()
    assert client.post("/api/settings/test", json={"role": "nobody"}).status_code == 400
