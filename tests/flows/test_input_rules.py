"""Hostile or sloppy input refused the same way everywhere: a server address with line breaks,
spaces or bad escapes; credentials typed into an address (moved to the key store, never saved
in settings.json, never echoed); ask positions out of range or naming a path; and the data
folder created for its owner only."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from studyhall.core.contracts.api_keys import clean_key_name

from tests.support.server import api_client, make_config

SECRET = "sk-typed-into-the-address-0123"


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "fresh" / "data"  # neither folder exists yet


@pytest.fixture
def client(data: Path):
    script = data.parent / "script.json"
    data.parent.mkdir(parents=True)
    script.write_text(json.dumps({"teacher": [{"text": "ok"}]}))
    with api_client(config=make_config(data_dir=data, script_path=script)) as c:
        yield c


def put_base(client, api_base: str):
    return client.put("/api/settings/models",
                      json={"models": {"answerer": {"model": "openai/m", "api_base": api_base}}})


@pytest.mark.parametrize(("api_base", "said"), [
    ("http://box:8080\r\nX-Evil: 1", "line break"),
    ("http://box:8080/v1\n", None),  # a trailing newline from a paste is trimmed, not refused
    ("http://my box:8080", "space"),
    ("http://box:8080/v1/%zz", "escape"),
    ("http://box:8080/%", "escape"),
    ("ftp://box", "http(s)"),
    ("http://box:port", "not a valid URL"),
])
def test_a_bad_server_address_is_refused_and_nothing_saved(client, data, api_base, said):
    response = put_base(client, api_base)
    if said is None:
        assert response.status_code == 200
        return
    assert response.status_code == 400
    assert set(response.json()) == {"error", "message"} and said in response.json()["message"]
    assert not (data / "settings.json").exists()


def test_credentials_in_an_address_become_its_key(client, data):
    response = put_base(client, f"https://bob:{SECRET}@Box.example:8443/v1/")
    assert response.status_code == 200
    roles = {r["role"]: r for r in response.json()["roles"]}
    assert roles["answerer"]["api_base"] == "https://Box.example:8443/v1"
    name = clean_key_name("https://box.example:8443/v1")
    assert {"name": name, "masked": "…0123"} in response.json()["keys"]
    for text in (response.text, client.get("/api/settings").text,
                 (data / "settings.json").read_text()):
        assert SECRET not in text and "bob" not in text
    services = client.app.state.services
    assert services.secret_store.get(name) == SECRET


def test_an_address_saved_with_credentials_earlier_is_shown_without(client, data):
    settings = client.app.state.services.settings_store
    current = settings.load()
    models = dict(current.models)
    models["answerer"] = models["answerer"].model_copy(
        update={"api_base": f"https://bob:{SECRET}@box.example/v1"})
    settings.save(current.model_copy(update={"models": models}))
    view = client.get("/api/settings")
    assert SECRET not in view.text
    assert {r["role"]: r for r in view.json()["roles"]}["answerer"]["api_base"] == \
        "https://box.example/v1"


def test_the_data_folder_and_its_records_are_private(client, data):
    chat = client.post("/api/chats", json={"topic": "heaps"}).json()["id"]
    assert put_base(client, "http://localhost:11434").status_code == 200
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    records = list((data / "chats").glob(f"{chat}*"))
    assert records
    for path in (data / "settings.json", *records):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert stat.S_IMODE((data / "chats").stat().st_mode) == 0o700


@pytest.mark.parametrize(("body", "status", "said"), [
    ({"question": "x" * 4001}, 400, "4000"),
    ({"question": "q", "source_id": "note_0123456789abcdef0123", "t": -5}, 400, "t"),
    ({"question": "q", "source_id": "note_0123456789abcdef0123", "t": 1e308}, 400, "t"),
    ({"question": "q", "page": 0}, 400, "page"),
    ({"question": "q", "page": 2}, 400, "source_id"),
    ({"question": "q", "source_id": "../../etc/passwd"}, 400, "source_id"),
    ({"question": "q", "source_id": "note_0123456789abcdef0123"}, 404, "No imported source"),
])
def test_ask_refuses_what_the_cli_refuses(client, body, status, said):
    response = client.post("/api/ask", json=body)
    assert response.status_code == status
    assert set(response.json()) == {"error", "message"} and said in response.json()["message"]
