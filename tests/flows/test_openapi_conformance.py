"""The served OpenAPI document and the server agree: every ``$ref`` resolves, every operation
lists its error statuses with the error body, an undocumented method is 405 with the right
``Allow`` (OPTIONS answers with it), and the events real streams send match their schemas."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from studyhall.core.contracts.ask_stream import ASK_STREAM
from studyhall.core.contracts.turn_stream import ACTIVITY_STREAM, TURN_STREAM
from studyhall.server.http.stream_events import model_events

from tests.support.server import api_client, make_config
from tests.support.session_api import parse_sse

TURN_EVENTS = model_events(TURN_STREAM)  # the turn stream's events, from the models
ACTIVITY_EVENTS = model_events(ACTIVITY_STREAM)

QUIZ = {"questions": [{"prompt": "2 + 2?", "choices": ["3", "4"], "correct": [1]}]}
SCRIPT = {
    "prober": [{"text": "Hi! A quick check first.",
                "tool_calls": [{"name": "quiz", "id": "q1", "arguments": QUIZ}]}],
}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory):
    data = tmp_path_factory.mktemp("openapi")
    script = data / "script.json"
    script.write_text(json.dumps(SCRIPT))
    with api_client(config=make_config(data_dir=data / "data", script_path=script)) as c:
        yield c


@pytest.fixture(scope="module")
def document(client) -> dict[str, Any]:
    return client.get("/api/openapi.json").json()


def refs(value: Any) -> list[str]:
    if isinstance(value, dict):
        found = [value["$ref"]] if isinstance(value.get("$ref"), str) else []
        return found + [r for v in value.values() for r in refs(v)]
    if isinstance(value, list):
        return [r for v in value for r in refs(v)]
    return []


def test_every_ref_resolves(document):
    found = refs(document)
    assert "#/components/schemas/AskTurn" in found and "#/components/schemas/RoleIn" in found
    for ref in found:
        node: Any = document
        for part in ref.removeprefix("#/").split("/"):
            node = node[part]  # a KeyError is an unresolvable $ref
        assert isinstance(node, dict), ref


def test_every_operation_lists_its_errors_with_the_error_body(document):
    for path, operations in document["paths"].items():
        for method, op in operations.items():
            statuses = set(op["responses"])
            assert {"401", "500"} <= statuses, (method, path)
            if "{" in path:
                assert "404" in statuses, (method, path)
            if "requestBody" in op:
                assert {"400", "413"} <= statuses, (method, path)
            for status, response in op["responses"].items():
                if status.startswith(("4", "5")):
                    schema = response["content"]["application/json"]["schema"]
                    assert schema == {"$ref": "#/components/schemas/Error"}, (method, path)
    imports = document["paths"]["/api/graph/import"]["post"]["responses"]
    assert "202" in imports and "200" not in imports  # what it answers with


@pytest.mark.parametrize(("method", "path", "allow"), [
    ("DELETE", "/api/health", "GET, HEAD, OPTIONS"),
    ("POST", "/api/chats/chat_x", "GET, HEAD, OPTIONS"),
    ("GET", "/api/settings/keys", "DELETE, OPTIONS, PUT"),
    ("PATCH", "/api/chats", "GET, HEAD, OPTIONS, POST"),
])
def test_an_undocumented_method_is_405_with_the_allowed_ones(client, method, path, allow):
    response = client.request(method, path)
    assert response.status_code == 405
    assert response.headers["allow"] == allow
    assert set(response.json()) == {"error", "message"}
    options = client.options(path)
    assert options.status_code == 204 and options.headers["allow"] == allow


def test_a_path_no_route_has_is_404(client):
    for method in ("GET", "POST", "OPTIONS", "TRACE"):
        response = client.request(method, "/api/nothing/here")
        assert response.status_code == 404 and set(response.json()) == {"error", "message"}


def check_events(raw: str, events: dict[str, Any]) -> list[str]:
    names = []
    # A ": ping" comment (a slow turn's keep-alive) is no event.
    blocks = [b for b in raw.split("\n\n") if b.strip() and not b.startswith(":")]
    for name, data in parse_sse("\n\n".join(blocks)):
        assert name in events, name
        jsonschema.validate(data, events[name])
        names.append(name)
    return names


def test_a_turn_streams_the_events_its_schema_documents(client, document):
    documented = document["paths"]["/api/chats/{chat_id}/messages"]["post"]["responses"]["200"]
    schema = documented["content"]["text/event-stream"]["schema"]
    assert {v["properties"]["event"]["const"] for v in schema["oneOf"]} == set(TURN_EVENTS)
    chat = client.post("/api/chats", json={}).json()["id"]
    turn = client.post(f"/api/chats/{chat}/messages", json={"text": "Teach me sums"})
    names = check_events(turn.text, TURN_EVENTS)
    assert {"message-start", "text-delta", "tool-call", "finish"} <= set(names)


def test_ask_and_activity_stream_the_events_their_schemas_document(client):
    ask = client.post("/api/ask", json={"question": "What is a heap?"})
    assert check_events(ask.text, model_events(ASK_STREAM))[0] == "sources"
    activity = client.get("/api/activity/stream", params={"limit": 1})
    assert activity.headers["cache-control"] == "no-store"
    assert check_events(activity.text, ACTIVITY_EVENTS) == ["activity"]


def test_an_unknown_query_parameter_is_refused(client):
    for path in ("/api/activity/stream?limit=1&x=1", "/api/graph/search?q=a&q=b",
                 "/api/review?limit=5&since=yesterday"):
        response = client.get(path)
        assert response.status_code == 400 and set(response.json()) == {"error", "message"}


def test_every_operation_needs_the_launch_token(document):
    assert document["security"] == [{"launchToken": []}]


def test_starting_a_session_documents_node_id_and_its_errors(client, document):
    """``POST /api/chats`` takes ``{"topic"?, "node_id"?}`` ("Study this"); an unknown node is
    the documented 404 with the error body, a malformed one the documented 400."""
    post = document["paths"]["/api/chats"]["post"]
    body = post["requestBody"]["content"]["application/json"]["schema"]
    if "$ref" in body:
        body = document["components"]["schemas"][body["$ref"].rsplit("/", 1)[1]]
    assert {"topic", "node_id"} <= set(body["properties"]) and not body.get("required")
    assert {"400", "404", "422"} <= set(post["responses"])
    missing = client.post("/api/chats", json={"node_id": "n_gone"})
    assert missing.status_code == 404 and missing.json()["error"] == "NotFound"
    assert "Pick it on the map again" in missing.json()["message"]
    assert client.post("/api/chats", json={"node_id": ""}).status_code == 400
