"""Hostile request bodies on every JSON route: over the size limit is a 413, nesting too deep
(``[`` x 200,000) or broken JSON is a 400 — always the usual ``{"error", "message"}``, never a
500. And the streams are never cached."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from tests.support.server import api_client

# Every route that reads a JSON body. Path parameters are filled with an id that names nothing:
# the body is read before anything is looked up.
JSON_ROUTES = [
    ("POST", "/api/chats"),
    ("POST", "/api/chats/{chat_id}/messages"),
    ("POST", "/api/chats/{chat_id}/answers"),
    ("POST", "/api/ask"),
    ("POST", "/api/activity/abort"),
    ("POST", "/api/artifacts"),
    ("POST", "/api/graph/import"),
    ("PUT", "/api/graph/positions"),
    ("PUT", "/api/settings/models"),
    ("PUT", "/api/settings/provider"),
    ("PUT", "/api/settings/keys"),
    ("DELETE", "/api/settings/keys"),
    ("PUT", "/api/settings/privacy"),
    ("PUT", "/api/settings/review"),
    ("PUT", "/api/settings/timeouts"),
    ("POST", "/api/settings/test"),
    ("POST", "/api/review/{node_id}"),
    ("PUT", "/api/cards/{node_id}"),
    ("POST", "/api/sources/{source_id}/quiz"),
    ("POST", "/api/sources/{source_id}/quiz/{quiz_id}/answers"),
    ("POST", "/api/goals"),
    ("PATCH", "/api/goals/{goal_id}"),
    ("POST", "/api/graph/nodes/{node_id}/assertions"),
]
OVER_EVERY_LIMIT = 8 * 1024 * 1024 + 1


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with api_client() as client:
        yield client


def _url(path: str) -> str:
    return re.sub(r"{[^}]+}", "x_1", path)


def _refused(response, status: int) -> str:  # type: ignore[no-untyped-def]
    assert response.status_code == status, response.text
    body = response.json()
    assert isinstance(body["error"], str) and isinstance(body["message"], str)
    return str(body["message"])


def test_the_list_holds_every_route_documented_with_a_json_body(client: TestClient) -> None:
    paths = client.get("/api/openapi.json").json()["paths"]
    documented = {(method.upper(), path) for path, ops in paths.items()
                  for method, op in ops.items() if "requestBody" in op}
    assert documented <= set(JSON_ROUTES)


@pytest.mark.parametrize(("method", "path"), JSON_ROUTES)
def test_json_nested_too_deep_is_a_400_not_a_500(client: TestClient, method: str,
                                                  path: str) -> None:
    # Under every route's size limit (the smallest is 16 KiB), so the nesting is what is refused.
    hostile = client.request(method, _url(path), content=b"[" * 15_000)
    assert "nested" in _refused(hostile, 400)
    # Well-formed but deeper than any request needs: refused before any code walks it.
    deep = client.request(method, _url(path), content=b'{"a":' * 100 + b"1" + b"}" * 100)
    assert "nested" in _refused(deep, 400)


@pytest.mark.parametrize(("method", "path"), JSON_ROUTES)
def test_broken_json_is_a_400(client: TestClient, method: str, path: str) -> None:
    for content in (b"{nope", b"\xff\xfe{}", b'{"a": 1'):
        assert "JSON" in _refused(client.request(method, _url(path), content=content), 400)


@pytest.mark.parametrize(("method", "path"), JSON_ROUTES)
def test_a_body_over_the_limit_is_a_413(client: TestClient, method: str, path: str) -> None:
    huge = client.request(method, _url(path), content=b" " * OVER_EVERY_LIMIT)
    assert "limit" in _refused(huge, 413)


def test_a_streamed_body_is_cut_off_at_the_limit(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit holds while reading
        for _ in range(20):
            yield b" " * (128 * 1024)

    assert "limit" in _refused(client.post("/api/chats", content=chunks()), 413)


def test_a_body_under_the_limit_still_works(client: TestClient) -> None:
    created = client.post("/api/chats", content=b'{"topic": "graphs"}' + b" " * 500_000)
    assert created.status_code == 200 and created.json()["id"]


def test_no_write_route_answers_a_hostile_body_with_a_server_error(client: TestClient) -> None:
    paths = client.get("/api/openapi.json").json()["paths"]
    for path, ops in paths.items():
        for method in ops:
            if method == "get":
                continue
            url = _url(path)
            response = client.request(method.upper(), url, content=b"[" * 200_000)
            assert response.status_code < 500, (method, url, response.text)
            if response.status_code >= 400:
                _refused(response, response.status_code)


def test_the_activity_stream_is_never_cached(client: TestClient) -> None:
    response = client.get("/api/activity/stream", params={"limit": 1})
    assert response.headers["content-type"].startswith("text/event-stream")
    assert response.headers["cache-control"] == "no-store"  # as the README says
    assert response.text.startswith("event: activity\ndata: {")
