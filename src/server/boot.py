"""The app uvicorn serves from its first moment: ``GET /api/health`` answers as soon as the socket
listens, while the composition root (``server/app.py``: every adapter, runner and route, ~0.25 s
of imports) is built in a thread; then its lifespan runs ``started(runtime)`` and every request
goes to it. A request that comes before that waits for it (nothing answers from a half-built
app); a build or start-up that fails stops the server, and ``run_server`` raises its error.

Only what health needs is imported before the server answers: this module imports no runtime,
no contract and no pydantic (tests/unit/test_startup_imports.py holds that).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.types import Receive, Scope, Send
from studyhall.server.config import Config
from studyhall.server.http import health
from studyhall.server.http.lazy_routes import LazyRoutes
from studyhall.server.http.security import SecurityMiddleware

if TYPE_CHECKING:
    from studyhall.server.runtime.runtime import Runtime

log = logging.getLogger("studyhall.server")
T = TypeVar("T")
_NOT_STARTED = JSONResponse({"error": "internal", "message": "Studyhall could not start: its log "
                             "says why, and the command that started it does too."}, status_code=503)


class BootingApp:
    """The ASGI app in front of the real one (``build()``, run once, in a thread)."""

    def __init__(self, config: Config, build: Callable[[], Starlette]) -> None:
        if config.port is None:
            raise ValueError("BootingApp needs the bound port (the Host/Origin checks use it)")
        self._build = build
        # The same route and the same guard as the real app's: the same answer, byte for byte.
        self._health = SecurityMiddleware(Starlette(routes=health.routes(config)),
                                          token=config.token, host=config.host, port=config.port)
        self._app: Starlette | None = None
        self._booted = asyncio.Event()
        self._lifespan = contextlib.AsyncExitStack()
        self._boot: asyncio.Task[None] | None = None
        self._warming: asyncio.Task[None] | None = None
        self.failure: BaseException | None = None  # why the app could not start

    @property
    def runtime(self) -> Runtime | None:
        """The real app's runtime once it is built (None before, or when the build failed)."""
        return None if self._app is None else self._app.state.runtime  # type: ignore[no-any-return]

    async def booted(self) -> None:
        """Return once the real app serves, or once it failed to (``failure`` says why)."""
        await self._booted.wait()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._serve_lifespan(receive, send)
            return
        if self._app is None:
            if _plain_health(scope):
                await self._health(scope, receive, send)
                return
            await self._booted.wait()
            if self._app is None:  # the build failed: the server is stopping with that error
                await _NOT_STARTED(scope, receive, send)
                return
        await self._app(scope, receive, send)

    async def _serve_lifespan(self, receive: Receive, send: Send) -> None:
        await receive()  # lifespan.startup: answered at once, the build runs behind it
        self._boot = asyncio.create_task(self._start(), name="build the app")
        await send({"type": "lifespan.startup.complete"})
        await receive()  # lifespan.shutdown
        # A build under way finishes and the app starts (its start-up steps run once the server
        # has answered, as they always did), then stops.
        await self._boot
        await self._lifespan.aclose()  # the real app's lifespan: stop(runtime)
        await send({"type": "lifespan.shutdown.complete"})

    async def _start(self) -> None:
        try:
            app = await asyncio.to_thread(_without_gc, self._build)
            await self._lifespan.enter_async_context(app.router.lifespan_context(app))
            self._app = app
        except Exception as e:  # noqa: BLE001 - run_server stops the server and raises it
            self.failure = e
            return
        finally:
            self._booted.set()
        # Then every route group, off the loop: the window's first screen (settings, chats, the
        # map, activity) would otherwise wait on the loop while each group loads (~90 ms in all
        # on a busy box). A request that comes first loads its group itself, as before; a stop
        # does not wait for this.
        self._warming = asyncio.create_task(
            asyncio.to_thread(_without_gc, lambda: _load_route_groups(app)), name="load routes")


def _plain_health(scope: Scope) -> bool:
    """``GET /api/health`` with no query: all a refusal of it can log is its path. Anything
    else waits for the real app, whose redactor knows the stored keys by then (a hostile query
    echoed into the log is masked, tests/flows/test_launch.py)."""
    return (scope["type"] == "http" and scope["method"] == "GET"
            and scope["path"] == "/api/health" and not scope.get("query_string"))


def _load_route_groups(app: Starlette) -> None:
    for route in app.routes:
        if isinstance(route, LazyRoutes):
            try:
                route.routes  # noqa: B018 - builds the group
            except Exception:  # its first request fails the same way, and says so
                log.exception("a route group failed to load")


def _without_gc(build: Callable[[], T]) -> T:
    """Build with no cyclic garbage collection, then leave what the imports made (~90,000
    objects that live as long as the process) out of every later collection: walking them again
    and again finds nothing to free (desktop/cli.py does the same for its own imports)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return build()
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()
