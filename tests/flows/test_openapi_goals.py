"""The goals routes in the served OpenAPI document, and real answers matching it: each operation
with its request shape (the text's cap, the day's pattern), its success and error statuses; a
created, listed, changed goal validates against its documented response schema; and
``POST /api/chats`` documents ``goal_id`` and the 404 of an unknown goal."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from studyhall.core.contracts.goals import MAX_GOAL_CHARS

from tests.support.server import api_client, make_config


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory):
    data = tmp_path_factory.mktemp("openapi-goals")
    with api_client(config=make_config(data_dir=data / "data")) as c:
        yield c


@pytest.fixture(scope="module")
def document(client) -> dict[str, Any]:
    return client.get("/api/openapi.json").json()


def schema_of(document: dict[str, Any], op: dict[str, Any], status: str) -> dict[str, Any]:
    """The response schema of ``op`` at ``status``, resolvable against the document."""
    schema = op["responses"][status]["content"]["application/json"]["schema"]
    return {**schema, "components": document["components"]}


def body_of(document: dict[str, Any], op: dict[str, Any]) -> dict[str, Any]:
    schema = op["requestBody"]["content"]["application/json"]["schema"]
    if "$ref" in schema:
        return document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def test_every_goal_operation_is_documented_with_its_statuses(document) -> None:
    goals, one = document["paths"]["/api/goals"], document["paths"]["/api/goals/{goal_id}"]
    assert set(goals) >= {"get", "post"} and set(one) >= {"get", "patch", "delete"}
    assert {"201", "400", "409"} <= set(goals["post"]["responses"])
    assert {"200", "404"} <= set(one["get"]["responses"])
    assert {"200", "400", "404"} <= set(one["patch"]["responses"])
    assert {"204", "404"} <= set(one["delete"]["responses"])
    new = body_of(document, goals["post"])
    assert new["required"] == ["text"]
    assert new["properties"]["text"]["maxLength"] == MAX_GOAL_CHARS
    target = new["properties"]["target"]["anyOf"][0]
    assert target["pattern"] == r"^\d{4}-\d{2}-\d{2}$"
    chats = document["paths"]["/api/chats"]["post"]
    assert "goal_id" in body_of(document, chats)["properties"]
    assert "404" in chats["responses"]
    assert goals["post"]["description"].startswith("The plan is in the session plans'")


def test_real_goal_answers_match_their_schemas(client, document) -> None:
    goals, one = document["paths"]["/api/goals"], document["paths"]["/api/goals/{goal_id}"]
    made = client.post("/api/goals", json={
        "text": "Learn heaps", "target": "2027-01-31",
        "plan": {"title": "Heaps", "mermaid": "graph TD\nA[Heaps] --> B[Heapsort]"}})
    assert made.status_code == 201
    jsonschema.validate(made.json(), schema_of(document, goals["post"], "201"))
    changed = client.patch(f"/api/goals/{made.json()['id']}", json={"plan": None})
    jsonschema.validate(changed.json(), schema_of(document, one["patch"], "200"))
    listed = client.get("/api/goals")
    jsonschema.validate(listed.json(), schema_of(document, goals["get"], "200"))
    missing = client.get("/api/goals/goal_unknown")
    assert missing.status_code == 404 and set(missing.json()) == {"error", "message"}
