"""THE composition root: the only module that constructs adapters and wires them into the app.

``build_services(config)`` picks an adapter for every port; ``build_app(config, services)``
assembles the Starlette app from the route modules in ``server/http``. The CLI builds its
services here too, so the command line and the HTTP API always run the same wiring.
Heavy libraries (torch, sentence_transformers, litellm) are never imported on this path.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from studyhall.adapters.llm.audit import JsonlAuditLog
from studyhall.adapters.llm.litellm_model import LitellmChatModel
from studyhall.adapters.llm.script import ChatScript
from studyhall.adapters.secrets import FileSecretStore, default_secret_store
from studyhall.adapters.store import (
    JsonChatStore,
    JsonJobStore,
    JsonlGraphStore,
    JsonSettingsStore,
    JsonSourceStore,
)
from studyhall.adapters.system import RandomIds, SystemClock
from studyhall.server.config import Config
from studyhall.server.http import (
    activity,
    ask,
    chats,
    demo_frames,
    errors,
    graph,
    graph_search,
    health,
    imports,
    settings,
)
from studyhall.server.http.security import SecurityMiddleware
from studyhall.server.redaction import REDACTOR, RedactingSecretStore
from studyhall.server.services import Services

UI_DIR = Path(__file__).resolve().parent / "ui"


def build_services(config: Config) -> Services:
    """Construct every adapter for this data dir. Cheap: no heavy import, no network."""
    secret_store = RedactingSecretStore(
        default_secret_store(config.data_dir, testing=config.testing), REDACTOR
    )
    REDACTOR.register(config.token)
    REDACTOR.register_environment()
    data = config.data_dir
    services = Services(
        config=config,
        settings_store=JsonSettingsStore(data / "settings.json"),
        secret_store=secret_store,
        clock=SystemClock(),
        ids=RandomIds(),
        chat_store=JsonChatStore(data / "chats"),
        graph_store=JsonlGraphStore(data / "graph"),
        job_store=JsonJobStore(data / "jobs"),
        source_store=JsonSourceStore(data / "sources"),
        audit_path=data / "audit.jsonl",
    )
    # One model adapter serves every role. STUDYHALL_SCRIPT answers each call from the script
    # (validated here, so a bad file fails the launch), still through litellm's offline mock
    # path; in testing mode a real provider call is refused instead of reaching the network.
    script = (
        ChatScript.load(config.script_path, data / "script_cursor.json")
        if config.script_path is not None
        else None
    )
    services.chat_model = LitellmChatModel(
        services.settings_store,
        secret_store,
        JsonlAuditLog(data / "audit.jsonl"),
        script=script,
        allow_network=not config.testing,
        backoff_base=0.0 if config.testing else 1.0,  # tests retry instantly
    )
    _wire_retrieval(services, data)
    _wire_notes(services, config)
    _wire_workbench(services)
    # Every stored key becomes known to the log redactor as the server starts: at once for the
    # key file (cheap), in the background for the OS keyring (probing it is slow); a key read
    # earlier than that is registered by the read itself.
    if isinstance(secret_store.inner, FileSecretStore):
        services.on_startup.append(_now(secret_store.preload))
    else:
        services.on_startup.append(_background(secret_store.preload))
    return services


def _wire_retrieval(services: Services, data: Path) -> None:
    """Grounded Ask: index under <data>/index, course readers, the local late-interaction scorer.
    Nothing heavy loads here (bm25s and the MiniLM model load on first use)."""
    from studyhall.adapters.search.index import FileSearchIndex
    from studyhall.adapters.search.late_interaction import MiniLMEncoder, MiniLMLateScorer
    from studyhall.adapters.sources.material import FileMaterialReader

    encoder = MiniLMEncoder()
    services.search_index = FileSearchIndex(data / "index")
    services.material_reader = FileMaterialReader()
    services.passage_scorer = MiniLMLateScorer(encoder)
    services.local_encoder = encoder


def _wire_notes(services: Services, config: Config) -> None:
    """Notes import and node embeddings: the vault reader, and the embedder the settings pick
    (the bundled MiniLM by default, loaded on first use, offline; a litellm model when set)."""
    from studyhall.adapters.embed.select import SettingsEmbedder
    from studyhall.adapters.sources.vault import FileVaultReader

    services.vault_reader = FileVaultReader()
    services.embedder = SettingsEmbedder(
        services.settings_store, services.secret_store, allow_network=not config.testing
    )


def _wire_workbench(services: Services) -> None:
    """Demos and diagrams are checked in the system's headless Chromium (network off; started
    on first use and kept warm while jobs run; Playwright is imported on first use)."""
    from studyhall.adapters.sandbox import ChromiumSandbox

    sandbox = ChromiumSandbox()
    services.sandbox = sandbox
    services.on_shutdown.append(sandbox.aclose)


def _now(work: Callable[[], object]) -> Callable[[], Awaitable[None]]:
    async def hook() -> None:
        work()

    return hook


def _background(work: Callable[[], object]) -> Callable[[], Awaitable[None]]:
    """A start-up hook that starts ``work`` in a thread and does not wait for it."""

    async def hook() -> None:
        asyncio.get_running_loop().run_in_executor(None, work)

    return hook


def _route_modules(services: Services) -> list[BaseRoute]:
    """Every /api route, module by module. New feature routes are listed here."""
    return [
        *health.routes(services),
        *chats.routes(services),
        *graph.routes(services),
        *graph_search.routes(services),
        *imports.routes(services),
        *ask.routes(services),
        *settings.routes(services),
        *demo_frames.routes(services),
        *activity.routes(services),
    ]


async def _api_not_found(request: Request) -> JSONResponse:
    return JSONResponse(
        {"error": "not_found", "message": f"No API route {request.method} {request.url.path}."},
        status_code=404,
    )


def build_app(config: Config, services: Services | None = None) -> Starlette:
    """The ASGI app. ``config.port`` must be the bound port: the Host/Origin checks use it."""
    if config.port is None:
        raise ValueError("build_app needs the bound port (bind the socket first, see serve.py)")
    services = services if services is not None else build_services(config)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for hook in services.on_startup:
            await hook()
        try:
            yield
        finally:
            for hook in reversed(services.on_shutdown):
                await hook()

    routes: list[BaseRoute] = [
        *_route_modules(services),
        Route("/api/{rest:path}", _api_not_found, methods=["GET", "POST", "PUT", "PATCH", "DELETE"],
              include_in_schema=False),
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
    app.state.config = config
    return app
