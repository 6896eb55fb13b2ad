"""The token bootstrap redirects only to a path on the app itself, built from the raw request
target; a header that must come once (Origin, Host) is refused when it comes twice."""

from __future__ import annotations

from typing import Any

import pytest
from studyhall.server.web import build_app

from tests.support.server import TEST_PORT, api_client, make_config

HOST = f"127.0.0.1:{TEST_PORT}"
ORIGIN = f"http://{HOST}"


@pytest.fixture(scope="module")
def config():
    return make_config()


async def bootstrap(config: Any, raw_path: bytes, query: bytes) -> tuple[int, bytes | None]:
    """``GET raw_path?query`` straight into the app (no client normalises the target)."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    path = raw_path.decode("latin-1")
    scope = {"type": "http", "method": "GET", "path": path, "raw_path": raw_path,
             "query_string": query, "http_version": "1.1", "headers": [(b"host", HOST.encode())],
             "scheme": "http", "server": ("127.0.0.1", TEST_PORT),
             "client": ("127.0.0.1", 5000), "root_path": ""}
    await build_app(config)(scope, receive, send)
    return sent[0]["status"], dict(sent[0]["headers"]).get(b"location")


@pytest.mark.parametrize(("raw_path", "location"), [
    (b"/%5Cevil.example", b"/%5Cevil.example"),  # stays an escape: never "/\evil.example"
    (b"/\\evil.example", b"/%5Cevil.example"),  # a raw backslash is escaped
    (b"/%E2%82%AC", b"/%E2%82%AC"),  # was a 500 (the decoded "/\u20ac" is not latin-1)
    ("/\u20ac".encode(), b"/%E2%82%AC"),
    (b"//evil.example/x", b"/"),
    (b"/%2F%2Fevil.example", b"/%2F%2Fevil.example"),  # a path on the app, escaped
    (b"/a b\r\nSet-Cookie: x", b"/a%20b%0D%0ASet-Cookie:%20x"),  # no header injection
    (b"/graph/view", b"/graph/view"),
])
async def test_the_redirect_is_a_path_on_the_app(config, raw_path: bytes, location: bytes):
    status, got = await bootstrap(config, raw_path, f"token={config.token}".encode())
    assert (status, got) == (303, location)


async def test_the_query_keeps_everything_but_the_token(config):
    query = f"a=1&%74oken={config.token}&token={config.token}&b=%E2%82%AC&c=\\x&d".encode()
    status, got = await bootstrap(config, b"/", query)
    assert (status, got) == (303, b"/?a=1&b=%E2%82%AC&c=%5Cx&d")


def test_two_origin_headers_are_refused_even_when_the_first_is_ours(config):
    with api_client(config=config) as client:
        for origins in ([ORIGIN, "http://evil.example"], [ORIGIN, ORIGIN],
                        ["http://evil.example", ORIGIN]):
            headers = [("origin", o) for o in origins]
            for response in (client.post("/api/chats", json={}, headers=headers),
                             client.get("/api/health", headers=headers)):
                assert response.status_code == 403, origins
                assert set(response.json()) == {"error", "message"}
        assert client.post("/api/chats", json={}, headers={"origin": ORIGIN}).status_code == 200


def test_two_host_headers_are_refused(config):
    with api_client(config=config) as client:
        response = client.get("/api/health", headers=[("host", HOST), ("host", "evil.example")])
        assert response.status_code == 400
