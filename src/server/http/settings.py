"""Settings routes: API keys per provider (masked, never returned), the model per role, a test call.

``GET /api/settings`` → what the Settings screen shows: the data dir, every role's model /
effort / server address, the saved key names with a mask (``…abcd``), the providers a
configured model still needs a key for. ``PUT /api/settings/models`` changes roles;
``PUT /api/settings/keys`` ``{"name", "value"}`` saves a key in the secret store and
``DELETE /api/settings/keys`` ``{"name"}`` forgets it; ``POST /api/settings/test`` ``{"role"}``
makes one tiny model call for that role and says plainly whether it worked.
A key's value goes into the secret store and never comes back out through this API.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from typing import Any, cast
from urllib.parse import urlsplit

from pydantic import BaseModel, Field, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from studyhall.core.contracts.models import ModelRequest, TextDelta
from studyhall.core.contracts.settings import (
    MODEL_ROLES,
    Effort,
    ModelRole,
    RoleModel,
    Settings,
)
from studyhall.core.errors import InvalidInput, ModelError, StudyhallError
from studyhall.server.http.errors import error_body, status_for
from studyhall.server.http.openapi import describe
from studyhall.server.runtime.model_ready import env_key_providers, missing_key
from studyhall.server.services import Services

EFFORTS: tuple[Effort, ...] = ("minimal", "low", "medium", "high")
# Providers offered in the key list (any other litellm provider name can be typed in).
PROVIDERS = ("openai", "anthropic", "openrouter", "gemini", "mistral", "groq", "deepseek", "xai")
# A provider name, or a server address (keys for a hosted id on a custom base live under it).
_KEY_NAME = re.compile(r"^[A-Za-z0-9_.:/-]{1,200}$")
MIN_KEY, MAX_KEY = 8, 4096
TEST_TIMEOUT = 45.0
TEST_PROMPT = "This is a connection test. Reply with the single word: ok"


class RoleIn(BaseModel):
    model: str = Field(min_length=1, max_length=200)
    effort: Effort | None = None
    api_base: str | None = Field(default=None, max_length=500)


class ModelsIn(BaseModel):
    models: dict[str, RoleIn]


class KeyIn(BaseModel):
    name: str = Field(min_length=1, max_length=200)
    value: str = Field(min_length=1, max_length=MAX_KEY)


class KeyName(BaseModel):
    name: str = Field(min_length=1, max_length=200)


class TestIn(BaseModel):
    role: str = "teacher"


def mask(value: str) -> str:
    """Enough to recognise a key, never enough to use it: its last four characters at most."""
    return f"…{value[-4:]}" if len(value) >= 16 else "saved"


def _parse(model: type[BaseModel], raw: bytes) -> Any:
    try:
        return model.model_validate(json.loads(raw or b"{}"))
    except ValueError as e:  # json errors and ValidationError alike
        if isinstance(e, ValidationError):
            detail = "; ".join(
                f"{'.'.join(str(x) for x in err['loc']) or 'body'}: {err['msg']}"
                for err in e.errors())
        else:
            detail = "the body is not valid JSON"
        raise InvalidInput(f"The settings were not saved: {detail}.") from e


def _check_base(url: str | None) -> str | None:
    if url is None or not url.strip():
        return None
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InvalidInput(f"The server address {url!r} is not an http(s) URL, e.g. "
                           "http://localhost:11434 for Ollama.")
    return url.rstrip("/")


def _error(error: StudyhallError) -> JSONResponse:
    return JSONResponse(error_body(error), status_code=status_for(error))


def routes(services: Services) -> list[BaseRoute]:
    settings_store = services.settings_store
    secrets = services.secret_store

    def _keys() -> list[dict[str, str]]:
        out = []
        for name in sorted(secrets.names()):
            value = secrets.get(name)
            if value:
                out.append({"name": name, "masked": mask(value)})
        return out

    def _view() -> dict[str, Any]:
        settings = settings_store.load()
        keys = _keys()
        saved = {k["name"] for k in keys}
        env = sorted(k for k, v in os.environ.items() if k.endswith("_API_KEY") and v)
        env_providers = env_key_providers()
        roles, needed = [], set()
        for role in MODEL_ROLES:
            chosen = settings.model_for(role)
            roles.append({"role": role, "model": chosen.model, "effort": chosen.effort,
                          "api_base": chosen.api_base})
            # The same rule the import and the labeler use to skip a model with no key.
            lacking = missing_key(chosen, saved, env_providers)
            if lacking is not None:
                needed.add(lacking)
        return {
            "data_dir": str(services.config.data_dir),
            "scripted": services.config.script_path is not None,
            "roles": roles,
            "efforts": list(EFFORTS),
            "providers": list(PROVIDERS),
            "keys": keys,
            "env_keys": env,  # names only: a value from the environment is never shown
            "needed_keys": sorted(needed),
        }

    async def get_settings(request: Request) -> Response:
        """The Settings screen: data dir, models per role, saved keys (masked), keys still
        needed by a configured model."""
        try:
            return JSONResponse(await asyncio.to_thread(_view))
        except StudyhallError as e:
            return _error(e)

    @describe(summary="Set the model, effort and server address of some roles",
              request=ModelsIn, responses={400: "A role or value is not valid"})
    async def put_models(request: Request) -> Response:
        """Change the listed roles; the others keep their models."""
        try:
            body: ModelsIn = _parse(ModelsIn, await request.body())
            unknown = sorted(set(body.models) - set(MODEL_ROLES))
            if unknown:
                raise InvalidInput(f"Unknown role(s): {', '.join(unknown)}. Roles are: "
                                   f"{', '.join(MODEL_ROLES)}.")
            current = settings_store.load()
            models = dict(current.models)
            for role, value in body.models.items():
                models[cast(ModelRole, role)] = RoleModel(  # checked against MODEL_ROLES above
                    model=value.model.strip(), effort=value.effort,
                    api_base=_check_base(value.api_base))
            updated = Settings.model_validate({**current.model_dump(), "models": models})
            await asyncio.to_thread(settings_store.save, updated)
            return JSONResponse(await asyncio.to_thread(_view))
        except StudyhallError as e:
            return _error(e)

    @describe(summary="Save an API key (stored in the OS keyring or a 0600 file)",
              request=KeyIn, responses={400: "Bad name or key"})
    async def put_key(request: Request) -> Response:
        """Save the key for a provider; the answer shows it masked, never whole."""
        try:
            body: KeyIn = _parse(KeyIn, await request.body())
            name, value = body.name.strip().lower(), body.value.strip()
            if not _KEY_NAME.match(name):
                raise InvalidInput("Name the key by its provider, e.g. openai, anthropic or "
                                   "openrouter.")
            if len(value) < MIN_KEY or any(c.isspace() for c in value):
                raise InvalidInput("That does not look like an API key (too short, or it has "
                                   "spaces). Paste the whole key from your provider's dashboard.")
            await asyncio.to_thread(secrets.set, name, value)
            return JSONResponse(await asyncio.to_thread(_view))
        except StudyhallError as e:
            return _error(e)

    @describe(summary="Forget a saved API key", request=KeyName)
    async def delete_key(request: Request) -> Response:
        """Remove a key from the secret store (unknown names are a no-op)."""
        try:
            body: KeyName = _parse(KeyName, await request.body())
            name = body.name.strip().lower()
            if name in await asyncio.to_thread(secrets.names):
                await asyncio.to_thread(secrets.delete, name)
            return JSONResponse(await asyncio.to_thread(_view))
        except StudyhallError as e:
            return _error(e)

    @describe(summary="Test a role's model with one tiny call", request=TestIn)
    async def test_connection(request: Request) -> Response:
        """One short model call for the role; ``{"ok", "model", "reply", "ms"}`` or
        ``{"ok": false, "kind", "message"}`` saying what to fix."""
        try:
            body: TestIn = _parse(TestIn, await request.body())
            if body.role not in MODEL_ROLES:
                raise InvalidInput(f"Unknown role {body.role!r}.")
            if services.chat_model is None:
                raise InvalidInput("No model is wired in this build.")
        except StudyhallError as e:
            return _error(e)
        role = cast(ModelRole, body.role)  # checked against MODEL_ROLES above
        model = settings_store.load().model_for(role)
        request_ = ModelRequest(role=role,
                                messages=({"role": "user", "content": TEST_PROMPT},))
        started = time.monotonic()
        try:
            reply = await asyncio.wait_for(_collect(services, request_), TEST_TIMEOUT)
        except ModelError as e:
            return JSONResponse({"ok": False, "role": body.role, "model": model.model,
                                 "kind": e.kind, "message": str(e)})
        except TimeoutError:
            return JSONResponse({"ok": False, "role": body.role, "model": model.model,
                                 "kind": "timeout", "message":
                                 f"No answer from {model.model} within {TEST_TIMEOUT:.0f} s. "
                                 "Check the server address or try again."})
        return JSONResponse({"ok": True, "role": body.role, "model": model.model,
                             "reply": reply[:200],
                             "ms": round((time.monotonic() - started) * 1000)})

    return [
        Route("/api/settings", get_settings, methods=["GET"], name="get_settings"),
        Route("/api/settings/models", put_models, methods=["PUT"], name="put_settings_models"),
        Route("/api/settings/keys", put_key, methods=["PUT"], name="put_settings_key"),
        Route("/api/settings/keys", delete_key, methods=["DELETE"], name="delete_settings_key"),
        Route("/api/settings/test", test_connection, methods=["POST"], name="test_settings"),
    ]


async def _collect(services: Services, request: ModelRequest) -> str:
    assert services.chat_model is not None
    parts: list[str] = []
    async for event in services.chat_model.stream(request):
        if isinstance(event, TextDelta):
            parts.append(event.text)
    return "".join(parts).strip()
