"""Route groups load on first need (``server/http/lazy_routes.py``): start-up and /api/health
build none of them, a request builds only the groups under its path, and the route table,
the OpenAPI document and 405's ``Allow`` answer as if every route had been listed in place."""

from __future__ import annotations

import types

import pytest
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route
from studyhall.server.http.lazy_routes import LazyRoutes, RouteOutsideGroup, lazy_modules

from tests.support.server import api_client, make_config


def _groups(app) -> list[LazyRoutes]:
    return [route for route in app.routes if isinstance(route, LazyRoutes)]


def _built(app) -> set[tuple[str, ...]]:
    return {group.prefixes for group in _groups(app) if group.built}


@pytest.fixture
def client():
    with api_client(config=make_config()) as client:
        yield client


def test_health_builds_no_route_group(client):
    assert client.get("/api/health").status_code == 200
    assert _groups(client.app) and _built(client.app) == set()


def test_a_request_builds_only_the_groups_under_its_path(client):
    assert client.get("/api/settings").status_code == 200
    assert _built(client.app) == {("/api/settings",)}
    assert client.get("/api/artifacts").status_code == 200
    assert _built(client.app) == {("/api/settings",), ("/api/artifacts",)}


def test_a_wrong_method_on_an_unbuilt_group_is_405_with_its_allow(client):
    response = client.delete("/api/settings")
    assert response.status_code == 405
    assert "GET" in response.headers["allow"] and "DELETE" not in response.headers["allow"]
    assert client.get("/api/no/such/route").status_code == 404


def test_the_openapi_document_lists_every_group(client):
    paths = set(client.get("/api/openapi.json").json()["paths"])
    assert {"/api/chats/{chat_id}/messages", "/api/ask", "/api/review", "/api/export/anki",
            "/api/sources/{source_id}/quiz", "/api/frames/demo/{job_id}"} <= paths
    assert all(group.built for group in _groups(client.app))


def test_every_route_group_stays_inside_its_prefixes(client):
    # Building checks each route's path against the group's prefixes (RouteOutsideGroup
    # otherwise): a route added outside them could never be reached.
    for group in _groups(client.app):
        assert group.routes, group.prefixes


def test_a_route_outside_its_groups_prefixes_fails_its_first_load():
    async def endpoint(request):
        return JSONResponse({})

    group = LazyRoutes(("/api/things",), lambda: [Route("/api/other", endpoint)])
    with pytest.raises(RouteOutsideGroup, match="/api/other"):
        _ = group.routes
    with pytest.raises(ValueError, match="absolute"):
        LazyRoutes(("api/things",), list)


def test_a_group_is_built_once_and_matches_in_order():
    calls: list[int] = []

    async def first(request):
        return JSONResponse({"route": "first"})

    async def second(request):
        return JSONResponse({"route": "second"})

    def build() -> list[BaseRoute]:
        calls.append(1)
        return [Route("/api/x/{name}", first), Route("/api/x/same", second)]

    group = LazyRoutes(("/api/x",), build)
    scope = {"type": "http", "path": "/api/x/same", "method": "GET", "root_path": ""}
    assert group.matches({**scope, "path": "/api/y"})[0].name == "NONE" and calls == []
    match, child = group.matches(scope)
    assert match.name == "FULL" and child["endpoint"] is first  # the first route, as listed
    group.matches(scope)
    assert calls == [1]
    assert str(group.url_path_for("first", name="a")) == "/api/x/a"


def test_a_lazy_module_runs_on_its_first_attribute():
    (module,) = lazy_modules("tests.support", "lazy_probe")
    import sys

    assert "tests.support.lazy_probe" in sys.modules
    assert type(module) is not types.ModuleType  # not run yet
    assert module.LOADED is True
    assert type(module) is types.ModuleType
