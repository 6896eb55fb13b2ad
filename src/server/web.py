"""The ASGI app over one runtime: every /api route group (each loaded on its first request or
right behind the first answers, ``http/lazy_routes.py``), the fallback 404/405, the UI's static
files, the security middleware, and the lifespan that runs ``started(runtime)``.

Each route group gets only the façade it serves (issue 26): the classroom, the library, the
learner, the workbench, Ask — never ``Services`` or the whole ``Runtime``.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles
from studyhall.server.app import build_runtime, build_services
from studyhall.server.config import Config
from studyhall.server.http import errors, health
from studyhall.server.http.fallback import fallback_route
from studyhall.server.http.lazy_routes import LazyRoutes, lazy_modules
from studyhall.server.http.security import SecurityMiddleware
from studyhall.server.runtime.runtime import Runtime, started
from studyhall.server.services import Services

if TYPE_CHECKING:  # checked as the modules they are; each loads with its first request
    from studyhall.server.http import (
        activity,
        artifacts,
        ask,
        chats,
        demo_frames,
        exports,
        goals,
        graph,
        graph_search,
        imports,
        learner_memory,
        review,
        settings,
        settings_capabilities,
        source_quiz,
        sources,
        today,
    )
else:
    (activity, artifacts, ask, chats, demo_frames, exports, goals, graph, graph_search, imports,
     review, settings, source_quiz, sources, today) = lazy_modules(
        "studyhall.server.http", "activity", "artifacts", "ask", "chats", "demo_frames",
        "exports", "goals", "graph", "graph_search", "imports", "review", "settings",
        "source_quiz", "sources", "today")
    (learner_memory,) = lazy_modules("studyhall.server.http", "learner_memory")
    (settings_capabilities,) = lazy_modules("studyhall.server.http", "settings_capabilities")

UI_DIR = Path(__file__).resolve().parent / "ui"


def _route_modules(services: Services, runtime: Runtime) -> list[BaseRoute]:
    """Every /api route, module by module. New feature routes are listed here, each group with
    the path prefixes its routes sit under: a group's module (with the contracts and runtime it
    imports) loads on the first request under them, so start-up imports what /api/health needs
    (``http/lazy_routes.py``; a route outside its prefixes fails the group's first load)."""
    return [
        *health.routes(services.config),
        LazyRoutes(("/api/chats",), lambda: chats.routes(runtime.classroom)),
        # Before the graph's: its GET /api/graph/nodes/{id:path} would take …/assertions.
        LazyRoutes(("/api/graph/nodes/",), lambda: learner_memory.routes(runtime.learner)),
        LazyRoutes(("/api/graph", "/api/chats/", "/api/extraction"),
                   lambda: graph.routes(runtime.library)),
        LazyRoutes(("/api/graph",), lambda: graph_search.routes(runtime.library)),
        LazyRoutes(("/api/graph",), lambda: imports.routes(runtime.library)),
        LazyRoutes(("/api/sources", "/api/shelf"), lambda: sources.routes(runtime.library)),
        LazyRoutes(("/api/sources/",), lambda: source_quiz.routes(runtime.library)),
        LazyRoutes(("/api/ask",), lambda: ask.routes(runtime.ask)),  # /api/ask and /api/asks
        LazyRoutes(("/api/settings",), lambda: settings.routes(
            services.settings_store, services.secret_store, services.chat_model, services.config)),
        LazyRoutes(("/api/settings/capabilities",),
                   lambda: settings_capabilities.routes(runtime.capabilities)),
        LazyRoutes(("/api/frames",), lambda: demo_frames.routes(runtime.workbench)),
        LazyRoutes(("/api/activity", "/api/jobs"), lambda: activity.routes(runtime.workbench)),
        LazyRoutes(("/api/artifacts",), lambda: artifacts.routes(runtime.workbench)),
        LazyRoutes(("/api/review", "/api/grades", "/api/cards", "/api/mastery", "/api/stats"),
                   lambda: review.routes(runtime.learner)),
        LazyRoutes(("/api/export",), lambda: exports.routes(runtime.learner)),
        LazyRoutes(("/api/today",), lambda: today.routes(runtime.learner)),
        LazyRoutes(("/api/goals",), lambda: goals.routes(runtime.learner)),
    ]


def build_app(config: Config, runtime: Runtime | None = None) -> Starlette:
    """The ASGI app over ``runtime`` (built from ``config`` when not given). ``config.port``
    must be the bound port: the Host/Origin checks use it."""
    if config.port is None:
        raise ValueError("build_app needs the bound port (bind the socket first, see serve.py)")
    runtime = runtime if runtime is not None else build_runtime(build_services(config))
    services = runtime.services

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with started(runtime):
            yield

    routes: list[BaseRoute] = [
        *_route_modules(services, runtime),
        fallback_route(),  # 404, or 405 with the right Allow, for whatever no route took
        Mount("/", StaticFiles(directory=UI_DIR, html=True), name="ui"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(SecurityMiddleware, token=config.token, host=config.host, port=config.port)
        ],
        exception_handlers=errors.EXCEPTION_HANDLERS,  # type: ignore[arg-type]
        lifespan=lifespan,
    )
    app.state.services = services
    app.state.runtime = runtime
    app.state.config = config
    return app
