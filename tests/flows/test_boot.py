"""The server answers ``/api/health`` while the app is still being built (server/boot.py), and
nothing else answers from a half-built app: every other request waits for the real one."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from studyhall.core.errors import ModelScriptInvalid
from studyhall.server.boot import BootingApp
from studyhall.server.http.lazy_routes import LazyRoutes

from tests.support.server import make_config

RUNTIME = object()  # stands for the real app's runtime


class HeldBuild:
    """A build that waits until the test releases it, then returns a small real app."""

    def __init__(self, fail: Exception | None = None) -> None:
        self.release = threading.Event()
        self.events: list[str] = []
        self.fail = fail

    def __call__(self) -> Starlette:
        assert self.release.wait(10), "never released"
        if self.fail is not None:
            raise self.fail

        @contextlib.asynccontextmanager
        async def lifespan(app: Starlette) -> AsyncIterator[None]:
            self.events.append("started")
            yield
            self.events.append("stopped")

        async def answer(request: Request) -> JSONResponse:
            return JSONResponse({"from": "the real app", "path": request.url.path})

        self.group = LazyRoutes(("/api/graph",), lambda: [Route("/api/graph", answer)])
        app = Starlette(routes=[Route("/api/health", answer), Route("/api/chats", answer),
                                self.group], lifespan=lifespan)
        app.state.runtime = RUNTIME
        return app


class Lifespan:
    """Drives an ASGI app's lifespan as uvicorn does."""

    def __init__(self, app: BootingApp) -> None:
        self._in: asyncio.Queue[dict[str, str]] = asyncio.Queue()
        self._out: asyncio.Queue[dict[str, str]] = asyncio.Queue()
        self._task = asyncio.create_task(app({"type": "lifespan"}, self._in.get, self._out.put))

    async def send(self, kind: str) -> str:
        await self._in.put({"type": f"lifespan.{kind}"})
        return (await asyncio.wait_for(self._out.get(), 10))["type"]


def _client(app: BootingApp, token: str, port: int) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                             base_url=f"http://127.0.0.1:{port}",
                             headers={"Authorization": f"Bearer {token}"})


async def _pending(request: Callable[[], object]) -> asyncio.Task[httpx.Response]:
    task: asyncio.Task[httpx.Response] = asyncio.create_task(request())  # type: ignore[arg-type]
    await asyncio.sleep(0.1)
    assert not task.done(), "answered before the app was built"
    return task


async def test_health_answers_while_the_app_builds_and_every_other_request_waits_for_it():
    config = make_config()
    build = HeldBuild()
    app = BootingApp(config, build)
    lifespan = Lifespan(app)
    assert await lifespan.send("startup") == "lifespan.startup.complete"  # at once: not built yet
    async with _client(app, config.token, config.port or 0) as client:
        health = await client.get("/api/health")
        assert health.status_code == 200
        assert health.json() == {"ok": True, "version": config.version}
        assert health.headers["x-content-type-options"] == "nosniff"  # the same front door
        assert (await client.get("/api/health", headers={"Authorization": "Bearer x"})
                ).status_code == 401
        chats = await _pending(lambda: client.get("/api/chats"))
        query = await _pending(lambda: client.get("/api/health?probe=1"))  # may echo a secret
        assert app.runtime is None and build.events == []
        build.release.set()
        assert (await chats).json() == {"from": "the real app", "path": "/api/chats"}
        assert (await query).json()["from"] == "the real app"
        assert build.events == ["started"] and app.runtime is RUNTIME and app.failure is None
        assert (await client.get("/api/health")).json()["from"] == "the real app"
    assert await lifespan.send("shutdown") == "lifespan.shutdown.complete"
    assert build.events == ["started", "stopped"]


async def test_route_groups_load_behind_the_first_answers_not_on_the_first_screens_requests():
    config = make_config()
    build = HeldBuild()
    app = BootingApp(config, build)
    lifespan = Lifespan(app)
    assert await lifespan.send("startup") == "lifespan.startup.complete"
    build.release.set()
    await asyncio.wait_for(app.booted(), 10)
    for _ in range(100):  # loaded in a thread right after the app started
        if build.group.built:
            break
        await asyncio.sleep(0.05)
    assert build.group.built
    async with _client(app, config.token, config.port or 0) as client:
        assert (await client.get("/api/graph")).json()["path"] == "/api/graph"
    assert await lifespan.send("shutdown") == "lifespan.shutdown.complete"


async def test_a_build_that_fails_is_reported_and_no_request_waits_for_ever():
    config = make_config()
    error = ModelScriptInvalid("The model script s.json is invalid: teacher[0].")
    build = HeldBuild(fail=error)
    app = BootingApp(config, build)
    lifespan = Lifespan(app)
    assert await lifespan.send("startup") == "lifespan.startup.complete"
    async with _client(app, config.token, config.port or 0) as client:
        chats = await _pending(lambda: client.get("/api/chats"))
        build.release.set()
        await asyncio.wait_for(app.booted(), 10)
        assert app.failure is error and app.runtime is None
        answer = await chats
        assert answer.status_code == 503 and "could not start" in answer.json()["message"]
    assert await lifespan.send("shutdown") == "lifespan.shutdown.complete"
    assert build.events == []


async def test_a_stop_during_the_build_starts_the_app_then_stops_it():
    # The start-up steps (the key file's check, jobs a crash cut) run once the server has
    # answered, whenever it is stopped.
    config = make_config()
    build = HeldBuild()
    app = BootingApp(config, build)
    lifespan = Lifespan(app)
    assert await lifespan.send("startup") == "lifespan.startup.complete"
    stopping = asyncio.create_task(lifespan.send("shutdown"))
    await asyncio.sleep(0.1)
    assert not stopping.done()
    build.release.set()
    assert await stopping == "lifespan.shutdown.complete"
    assert build.events == ["started", "stopped"]


def test_the_app_needs_its_bound_port():
    with pytest.raises(ValueError, match="bound port"):
        BootingApp(make_config(port=None), HeldBuild())
