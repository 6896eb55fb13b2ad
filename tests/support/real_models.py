"""The real app with every model role pointed at a scripted model server on 127.0.0.1: no
script, the production litellm adapter, real HTTP to the server (tests allow loopback only).

Each role gets the model id ``<provider>/<role>``, so the server's script is keyed by role.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any

from studyhall.core.contracts.settings import MODEL_ROLES, ModelRole, RoleModel, Settings, Timeouts
from studyhall.core.ports.storage import SettingsStore
from studyhall.server.app import build_services
from studyhall.server.config import load_config
from studyhall.server.runtime.runtime import Runtime
from studyhall.server.services import Services

from tests.support.model_server import ScriptedModelServer
from tests.support.session_api import PORT, Api, scripted_app


def point_roles_at(
    store: SettingsStore,
    server: ScriptedModelServer,
    roles: Iterable[ModelRole] = MODEL_ROLES,
    *,
    provider: str = "openai",
    timeouts: Timeouts | None = None,
) -> None:
    settings = store.load()
    models = dict(settings.models)
    for role in roles:
        models[role] = RoleModel(model=f"{provider}/{role}", api_base=server.api_base)
    update: dict[str, Any] = {"models": models}
    if timeouts is not None:
        update["timeouts"] = timeouts
    store.save(settings.model_copy(update=update))
    Settings.model_validate(store.load().model_dump())  # still a valid settings file


def real_services(server: ScriptedModelServer, **options: Any) -> Services:
    """``build_services`` with no script and every role on ``server``."""
    services = build_services(load_config(port=PORT, script_path=None))
    point_roles_at(services.settings_store, server, **options)
    return services


@asynccontextmanager
async def real_app(
    server: ScriptedModelServer, services: Services | None = None, **options: Any
) -> AsyncIterator[tuple[Api, Runtime, Services]]:
    services = services or real_services(server, **options)
    async with scripted_app(None, services=services) as (api, runtime):
        yield api, runtime, services

