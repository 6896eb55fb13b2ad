"""The local server's front door: token, Host, Origin and headers on every response."""

from __future__ import annotations

import re

import pytest
from starlette.responses import JSONResponse
from starlette.routing import Route
from studyhall.core.errors import BusyError, NotFound
from studyhall.server.http.security import cookie_name
from studyhall.server.web import build_app

from tests.support.server import TEST_PORT, api_client, make_config

ORIGIN = f"http://127.0.0.1:{TEST_PORT}"


@pytest.fixture
def config():
    return make_config()


@pytest.fixture
def anon(config):
    with api_client(config=config, authorized=False) as client:
        yield client


def test_api_without_token_is_401(anon):
    response = anon.get("/api/health")
    assert response.status_code == 401
    assert response.json()["error"] == "unauthorized"
    assert "launch token" in response.json()["message"]


def test_api_with_wrong_token_is_401(anon, config):
    for header in (f"Bearer {config.token}x", f"Bearer {config.token[:-1]}", "Bearer ", config.token,
                   f"Basic {config.token}"):
        assert anon.get("/api/health", headers={"Authorization": header}).status_code == 401, header
    anon.cookies.set(cookie_name(TEST_PORT), "not-the-token")
    assert anon.get("/api/health").status_code == 401


def test_unknown_api_route_still_needs_the_token(anon):
    assert anon.get("/api/nothing/here").status_code == 401
    assert anon.post("/api/chats", json={}).status_code == 401


def test_bearer_token_opens_the_api(config):
    with api_client(config=config) as client:
        response = client.get("/api/health")
    assert response.status_code == 200
    assert response.json() == {"ok": True, "version": config.version}


def test_start_url_trades_token_for_a_session_cookie(anon, config):
    response = anon.get(f"/?token={config.token}&view=home", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/?view=home"  # the token leaves the address bar
    set_cookie = response.headers["set-cookie"]
    assert set_cookie.startswith(f"{cookie_name(TEST_PORT)}={config.token}")
    assert "HttpOnly" in set_cookie and "SameSite=Strict" in set_cookie
    # The cookie alone now authenticates API calls from the page.
    assert anon.get("/api/health").status_code == 200


def test_start_url_with_wrong_token_sets_nothing(anon, config):
    response = anon.get("/?token=guess", follow_redirects=False)
    assert response.status_code == 401
    assert "set-cookie" not in response.headers
    assert anon.get("/api/health").status_code == 401


@pytest.mark.parametrize(
    "host", ["evil.example", f"evil.example:{TEST_PORT}", "127.0.0.1:1", f"192.168.1.5:{TEST_PORT}",
             f"127.0.0.1.nip.io:{TEST_PORT}", "localhost"],
)
def test_foreign_host_is_rejected_even_with_token(config, host):
    with api_client(config=config) as client:
        response = client.get("/api/health", headers={"Host": host})
        assert response.status_code == 421
        assert client.get("/", headers={"Host": host}).status_code == 421


def test_localhost_alias_is_accepted(config):
    with api_client(config=config) as client:
        assert client.get("/api/health", headers={"Host": f"localhost:{TEST_PORT}"}).status_code == 200


async def test_missing_host_is_400(config):
    app = build_app(config)
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": "/api/health", "raw_path": b"/api/health",
             "query_string": b"", "headers": [], "http_version": "1.1", "scheme": "http",
             "server": ("127.0.0.1", TEST_PORT), "client": ("127.0.0.1", 5000), "root_path": ""}
    await app(scope, receive, send)
    assert sent[0]["status"] == 400


@pytest.mark.parametrize("origin", ["http://evil.example", "null", f"http://127.0.0.1:{TEST_PORT + 1}",
                                    f"https://127.0.0.1:{TEST_PORT}"])
@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
def test_cross_origin_writes_are_403_even_with_token(config, origin, method):
    with api_client(config=config) as client:
        response = client.request(method, "/api/chats", headers={"Origin": origin}, json={})
    assert response.status_code == 403
    assert response.json()["error"] == "forbidden"


def test_cross_site_fetch_metadata_is_403(config):
    with api_client(config=config) as client:
        response = client.post("/api/chats", headers={"Sec-Fetch-Site": "cross-site"}, json={})
    assert response.status_code == 403


def test_same_origin_write_passes_the_guard(config):
    with api_client(config=config) as client:
        response = client.post("/api/no-such-route", headers={"Origin": ORIGIN}, json={})
    assert response.status_code == 404  # reached routing: the guard let it through
    assert response.json()["error"] == "not_found"


def test_no_cors_grant_for_foreign_reads(config):
    with api_client(config=config) as client:
        response = client.get("/api/health", headers={"Origin": "http://evil.example"})
    assert "access-control-allow-origin" not in response.headers


def _assert_security_headers(response):
    csp = response.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "script-src 'self'" in csp and "object-src 'none'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert not re.search(r"https?://", csp), "no external host may be allowed"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["referrer-policy"] == "no-referrer"


def test_security_headers_on_every_kind_of_response(config, anon):
    with api_client(config=config) as client:
        responses = [
            client.get("/api/health"),
            client.get("/api/missing"),
            client.get("/"),
            client.get("/app.js"),
            client.get("/missing.png"),
            client.get("/", headers={"Host": "evil.example"}),
            client.post("/api/chats", headers={"Origin": "http://evil.example"}),
            anon.get("/api/health"),
            anon.get("/?token=nope", follow_redirects=False),
            anon.get(f"/?token={config.token}", follow_redirects=False),
        ]
    for response in responses:
        _assert_security_headers(response)
    assert responses[0].headers["cache-control"] == "no-store"


def test_home_page_is_served_and_has_no_inline_script(anon):
    response = anon.get("/")
    assert response.status_code == 200
    html = response.text
    assert "<title>Studyhall</title>" in html
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag, f"inline script breaks the CSP: {tag}"
    assert not re.search(r"\son[a-z]+=", html), "inline event handlers break the CSP"
    assert "style=" not in html
    assert anon.get("/app.js").status_code == 200


def test_core_errors_become_clear_json(config):
    async def missing(request):
        raise NotFound("No chat chat_1. It may have been deleted.")

    async def busy(request):
        raise BusyError("A turn is already running on this chat.")

    async def broken(request):
        raise RuntimeError("boom")

    app = build_app(config)
    app.router.routes[:0] = [Route("/api/t/missing", missing), Route("/api/t/busy", busy),
                             Route("/api/t/broken", broken)]
    from starlette.testclient import TestClient

    client = TestClient(app, base_url=ORIGIN, headers={"Authorization": f"Bearer {config.token}"},
                        raise_server_exceptions=False)
    assert client.get("/api/t/missing").status_code == 404
    assert client.get("/api/t/missing").json()["message"].startswith("No chat chat_1")
    assert client.get("/api/t/busy").status_code == 409
    broken_response = client.get("/api/t/broken")
    assert broken_response.status_code == 500
    assert "boom" not in broken_response.text  # internals stay in the log
    assert "logs/studyhall.log" in broken_response.json()["message"]


def test_openapi_lists_every_api_route_including_later_ones(config):
    async def extra(request):
        """Added after build: must still be documented."""
        return JSONResponse({})

    app = build_app(config)
    app.router.routes.insert(0, Route("/api/extra/{item_id}", extra, methods=["GET", "POST"]))
    from starlette.testclient import TestClient

    client = TestClient(app, base_url=ORIGIN, headers={"Authorization": f"Bearer {config.token}"})
    doc = client.get("/api/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    assert {"/api/health", "/api/openapi.json", "/api/extra/{item_id}"} <= set(doc["paths"])
    extra_doc = doc["paths"]["/api/extra/{item_id}"]
    assert set(extra_doc) == {"get", "post"}
    assert extra_doc["get"]["summary"] == "Added after build: must still be documented."
    assert extra_doc["get"]["parameters"][0]["name"] == "item_id"
    assert all(path.startswith("/api") for path in doc["paths"])
    assert "/api/{rest}" not in doc["paths"]  # the JSON 404 fallback is not an operation
    assert doc["components"]["securitySchemes"]["launchToken"]["scheme"] == "bearer"


def test_a_token_in_an_api_query_is_not_a_credential(anon, config):
    assert anon.get(f"/api/health?token={config.token}").status_code == 401
    assert "set-cookie" not in anon.get(f"/api/health?token={config.token}").headers


async def test_start_url_never_redirects_off_the_app(config):
    app = build_app(config)
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": "//evil.example/x", "raw_path": b"//evil.example/x",
             "query_string": f"token={config.token}".encode(), "http_version": "1.1",
             "headers": [(b"host", f"127.0.0.1:{TEST_PORT}".encode())], "scheme": "http",
             "server": ("127.0.0.1", TEST_PORT), "client": ("127.0.0.1", 5000), "root_path": ""}
    await app(scope, receive, send)
    assert sent[0]["status"] == 303
    assert dict(sent[0]["headers"])[b"location"] == b"/"
