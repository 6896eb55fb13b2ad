"""Settings routes: API keys per provider (masked, never returned), the model per role, a test call.

``GET /api/settings`` → what the Settings screen shows: the data dir, every role's model /
effort / server address, the saved key names with a mask (``…abcd``), the providers a
configured model still needs a key for. ``PUT /api/settings/provider`` puts every role on one
provider (``settings_provider``); ``PUT /api/settings/models`` changes roles;
``PUT /api/settings/keys`` ``{"name", "value"}`` saves a key in the secret store and
``DELETE /api/settings/keys`` ``{"name"}`` forgets it; ``POST /api/settings/test`` ``{"role"}``
makes one tiny model call for that role and says plainly whether it worked;
``PUT /api/settings/privacy`` ``{"scrub_local"}`` says whether prompts to a model on this machine
are scrubbed of personal data too (hosted providers always are);
``PUT /api/settings/review`` ``{"new_cards_per_day"?, "reviews_per_day"?, "desired_retention"?,
"day_starts_hour"?}`` sets the spaced-review caps and the hour the learner's day starts (each
imported Anki deck's FSRS options come back under ``review.decks``, read-only); ``PUT /api/settings/timeouts`` ``{"hosted_s"?, "local_s"?}`` how
long a model call waits for bytes (a model on this computer may need minutes to load).
A key is named by its provider (``openai``) or by a server's address (``http://host:1234/v1``,
kept in its normal form, ``core.contracts.servers``).
A key's value goes into the secret store and never comes back out through this API.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from typing import Any, cast, get_args

from pydantic import Field
from pydantic.json_schema import JsonDict
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from studyhall.core.contracts.api_keys import clean_key_name
from studyhall.core.contracts.models import ModelRequest, StreamedText
from studyhall.core.contracts.servers import (
    SERVER_ADDRESS_PATTERN,
    ServerAddress,
    normal_address,
    parse_server_address,
    wait_seconds,
    without_credentials,
)
from studyhall.core.contracts.settings import (
    MODEL_ROLES,
    Effort,
    ModelRole,
    Privacy,
    RoleModel,
    Settings,
    Timeouts,
)
from studyhall.core.contracts.text_patterns import NOT_BLANK, NOT_SPACE, SPACE
from studyhall.core.errors import InvalidInput, ModelError
from studyhall.core.guardrails.chat_model import is_local, scrubs
from studyhall.core.ports.models import ChatModel
from studyhall.core.ports.storage import SecretStore, SettingsStore
from studyhall.server.config import Config
from studyhall.server.http.bodies import read_model
from studyhall.server.http.body_model import BodyModel
from studyhall.server.http.openapi import describe
from studyhall.server.http.settings_provider import provider_route, provider_view
from studyhall.server.runtime.classroom.model_ready import (
    env_key_names,
    env_key_providers,
    missing_key,
)

EFFORTS: tuple[Effort, ...] = get_args(Effort)
# Providers offered in the key list (any other litellm provider name can be typed in).
PROVIDERS = ("openai", "anthropic", "openrouter", "gemini", "mistral", "groq", "deepseek", "xai")
# A provider name, or a server address (keys for a hosted id on a custom base live under it).
_KEY_NAME = re.compile(r"^[A-Za-z0-9_.:/-]{1,200}$")
MIN_KEY, MAX_KEY = 8, 4096
TEST_MARGIN = 5.0  # the test waits this much longer than the model call itself may
TEST_PROMPT = "This is a connection test. Reply with the single word: ok"


_ADDRESS: JsonDict = {"pattern": SERVER_ADDRESS_PATTERN}


class RoleIn(BodyModel):
    model: str = Field(min_length=1, max_length=200, json_schema_extra=NOT_BLANK)
    effort: Effort | None = None
    api_base: str | None = Field(default=None, max_length=500,
                                 json_schema_extra=_ADDRESS)


# The route's own checks, as JSON Schema for the OpenAPI document (the route says what is
# wrong in its own words): known roles only; a key name made of a provider's or an address's
# characters; a key of at least MIN_KEY characters with no space inside.
_ROLE_NAMES: JsonDict = {"enum": [str(role) for role in MODEL_ROLES]}
_NAME_CHARS = rf"^{SPACE}*[A-Za-z0-9_.:/-]*[A-Za-z0-9_.:-][A-Za-z0-9_.:/-]*{SPACE}*$"
_KEY_CHARS = rf"^{SPACE}*{NOT_SPACE}{{{MIN_KEY},}}{SPACE}*$"


class ModelsIn(BodyModel):
    models: dict[str, RoleIn] = Field(json_schema_extra={"propertyNames": _ROLE_NAMES})


class KeyIn(BodyModel):
    name: str = Field(min_length=1, max_length=200, json_schema_extra={"pattern": _NAME_CHARS})
    value: str = Field(min_length=1, max_length=MAX_KEY,
                       json_schema_extra={"pattern": _KEY_CHARS})


class KeyName(BodyModel):
    name: str = Field(min_length=1, max_length=200)


class TestIn(BodyModel):
    role: str = Field(default="teacher", json_schema_extra=_ROLE_NAMES)


class TimeoutsIn(BodyModel):
    """Seconds a model call waits for bytes; a field left out keeps its value."""

    hosted_s: float | None = Field(default=None, ge=1, le=3600)
    local_s: float | None = Field(default=None, ge=1, le=7200)


class PrivacyIn(BodyModel):
    scrub_local: bool


class ReviewIn(BodyModel):
    """The review caps; a field left out keeps its value. Bounds as in ``Settings``."""

    new_cards_per_day: int | None = Field(default=None, ge=0, le=1000, strict=True)
    reviews_per_day: int | None = Field(default=None, ge=1, le=10_000, strict=True)
    desired_retention: float | None = Field(default=None, ge=0.7, le=0.97)
    day_starts_hour: int | None = Field(default=None, ge=0, le=23, strict=True)


def mask(value: str) -> str:
    """Enough to recognise a key, never enough to use it: its last four characters at most."""
    return f"…{value[-4:]}" if len(value) >= 16 else "saved"


NOT_SAVED = "The settings were not saved"


def key_name_of(typed: str) -> str:
    """The name a typed key name is saved under: a provider's lower-case name, or a server
    address in its normal form (refused when it is neither)."""
    if "://" in typed:
        name = normal_address(typed)
        if name is None or len(name) > 200 or any(c.isspace() or ord(c) < 0x20 for c in name):
            raise InvalidInput("That server address is not an http(s) URL. Type it as in the "
                               "role's Server address, e.g. http://127.0.0.1:1234/v1.")
        return name
    name = clean_key_name(typed)
    if not _KEY_NAME.match(name):
        raise InvalidInput("Name the key by its provider, e.g. openai, anthropic or "
                           "openrouter, or by a server address such as "
                           "http://127.0.0.1:1234/v1.")
    return name


def _check_base(url: str | None) -> ServerAddress | None:
    if url is None or not url.strip():
        return None
    return parse_server_address(url)  # credentials in it come back apart, as a secret


def routes(settings_store: SettingsStore, secrets: SecretStore, chat_model: ChatModel,
           config: Config) -> list[BaseRoute]:

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
        env = env_key_names()
        env_providers = env_key_providers()
        roles, needed, servers = [], set(), set()
        for role in MODEL_ROLES:
            chosen = settings.model_for(role)
            # An address saved with "user:key@" in it (before they were moved out) shows none.
            shown = without_credentials(chosen.api_base) if chosen.api_base else None
            roles.append({"role": role, "model": chosen.model, "effort": chosen.effort,
                          "api_base": shown})
            if shown and (address := normal_address(shown)):
                servers.add(address)  # a server a key may be saved for
            # The same rule the import and the labeler use to skip a model with no key.
            lacking = missing_key(chosen, saved, env_providers)
            if lacking is not None and not (role == "transcriber" and settings.transcription_off):
                needed.add(lacking)
        return {
            "data_dir": str(config.data_dir),
            "scripted": config.script_path is not None,
            "roles": roles,
            "efforts": list(EFFORTS),
            "providers": list(PROVIDERS),
            "keys": keys,
            "env_keys": env,  # names only: a value from the environment is never shown
            "needed_keys": sorted(needed),
            "key_servers": sorted(servers),  # the role servers' addresses, as keys are named
            "timeouts": settings.timeouts.model_dump(),
            # Hosted providers are always scrubbed; a local server only with scrub_local.
            "privacy": {
                **settings.privacy.model_dump(),
                "local_roles": [r for r in MODEL_ROLES if is_local(settings.model_for(r))],
                "unscrubbed_roles": [r for r in MODEL_ROLES if not scrubs(settings, r)],
            },
            "review": {"new_cards_per_day": settings.new_cards_per_day,
                       "reviews_per_day": settings.reviews_per_day,
                       "desired_retention": settings.desired_retention,
                       "day_starts_hour": settings.day_starts_hour,
                       "decks": {name: deck.model_dump() for name, deck
                                 in sorted(settings.review_decks.items())}},
            **provider_view(settings),  # the provider step: the choices, the one in use
        }

    async def _changed(change: Callable[[Settings], Settings]) -> Response:
        # One load-modify-save under the store's lock (off the loop): a change made by a
        # request running alongside is never overwritten by this one's stale copy.
        await asyncio.to_thread(settings_store.update, change)
        return JSONResponse(await asyncio.to_thread(_view))

    async def get_settings(request: Request) -> Response:
        """The Settings screen: data dir, models per role, saved keys (masked), keys still
        needed by a configured model."""
        return JSONResponse(await asyncio.to_thread(_view))

    @describe(summary="Set the model, effort and server address of some roles",
              request=ModelsIn, responses={400: "A role or value is not valid"})
    async def put_models(request: Request) -> Response:
        """Change the listed roles; the others keep their models."""
        body: ModelsIn = await read_model(request, ModelsIn, refused=NOT_SAVED)
        unknown = sorted(set(body.models) - set(MODEL_ROLES))
        if unknown:
            raise InvalidInput(f"Unknown role(s): {', '.join(unknown)}. Roles are: "
                               f"{', '.join(MODEL_ROLES)}.")
        chosen: dict[ModelRole, RoleModel] = {}
        keys: dict[str, str] = {}  # credentials typed into an address: saved as its key
        for role, value in body.models.items():
            if not value.model.strip():
                raise InvalidInput(f"{NOT_SAVED}: the model for {role} is empty.")
            base = _check_base(value.api_base)
            if base is not None and base.secret is not None:
                keys[clean_key_name(base.url)] = base.secret
            chosen[cast(ModelRole, role)] = RoleModel(  # checked against MODEL_ROLES above
                model=value.model.strip(), effort=value.effort,
                api_base=base.url if base is not None else None)
        for name, secret in keys.items():
            await asyncio.to_thread(secrets.set, name, secret)
        # Saving a transcriber model turns transcription back on (a provider may have set it off).
        back_on = {"transcription_off": None} if "transcriber" in chosen else {}
        return await _changed(lambda current: Settings.model_validate(
            {**current.model_dump(), "models": {**current.models, **chosen}, **back_on}))

    @describe(summary="Save an API key (stored in the OS keyring or a 0600 file)",
              request=KeyIn, responses={400: "Bad name or key"})
    async def put_key(request: Request) -> Response:
        """Save the key for a provider; the answer shows it masked, never whole."""
        body: KeyIn = await read_model(request, KeyIn, refused=NOT_SAVED)
        name, value = key_name_of(body.name), body.value.strip()
        if len(value) < MIN_KEY or any(c.isspace() for c in value):
            raise InvalidInput("That does not look like an API key (too short, or it has "
                               "spaces). Paste the whole key from your provider's dashboard.")
        await asyncio.to_thread(secrets.set, name, value)
        return JSONResponse(await asyncio.to_thread(_view))

    @describe(summary="Forget a saved API key", request=KeyName)
    async def delete_key(request: Request) -> Response:
        """Remove a key from the secret store (unknown names are a no-op)."""
        body: KeyName = await read_model(request, KeyName, refused=NOT_SAVED)
        name = normal_address(body.name) or clean_key_name(body.name)
        if name in await asyncio.to_thread(secrets.names):
            await asyncio.to_thread(secrets.delete, name)
        return JSONResponse(await asyncio.to_thread(_view))

    @describe(summary="Scrub personal data for a model on this machine too (hosted: always)",
              request=PrivacyIn, responses={400: "Not a boolean"})
    async def put_privacy(request: Request) -> Response:
        """Whether prompts to a local server are scrubbed of personal data as well."""
        body: PrivacyIn = await read_model(request, PrivacyIn, refused=NOT_SAVED)
        privacy = Privacy(scrub_local=body.scrub_local)
        return await _changed(lambda current: current.model_copy(update={"privacy": privacy}))

    @describe(summary="Set the review caps: new cards and reviews per day, desired retention",
              request=ReviewIn, responses={400: "A value is out of range"})
    async def put_review(request: Request) -> Response:
        """Change the listed caps (new cards/day 0–1000, reviews/day 1–10000, desired
        retention 0.70–0.97); the others keep their values."""
        body: ReviewIn = await read_model(
            request, ReviewIn, refused=NOT_SAVED,
            hint="New cards per day is a whole number from 0 to 1000, reviews per day from 1 "
                 "to 10000, desired retention from 0.70 to 0.97, the day's start an hour from "
                 "0 to 23.")
        caps = body.model_dump(exclude_none=True)
        return await _changed(lambda current: current.model_copy(update=caps))

    @describe(summary="Set how long a model call waits for bytes (hosted, local)",
              request=TimeoutsIn, responses={400: "A value is out of range"})
    async def put_timeouts(request: Request) -> Response:
        """Change the listed waits (hosted 1–3600 s, local 1–7200 s); the others keep theirs."""
        body: TimeoutsIn = await read_model(
            request, TimeoutsIn, refused=NOT_SAVED,
            hint="A hosted provider's wait is 1 to 3600 seconds, a local server's 1 to 7200.")
        waits = body.model_dump(exclude_none=True)
        return await _changed(lambda current: current.model_copy(update={
            "timeouts": Timeouts.model_validate({**current.timeouts.model_dump(), **waits})}))

    @describe(summary="Test a role's model with one tiny call", request=TestIn,
              responses={400: "Unknown role"})
    async def test_connection(request: Request) -> Response:
        """One short model call for the role; ``{"ok", "model", "reply", "ms"}`` or
        ``{"ok": false, "kind", "message"}`` saying what to fix."""
        body: TestIn = await read_model(request, TestIn)
        if body.role not in MODEL_ROLES:
            raise InvalidInput(f"Unknown role {body.role!r}.")
        role = body.role  # a ModelRole now: checked against MODEL_ROLES above
        settings = settings_store.load()
        model = settings.model_for(role)
        # As long as the role's own calls may wait (a cold local model is not a failure).
        wait = wait_seconds(model, settings.timeouts) + TEST_MARGIN
        request_ = ModelRequest(role=role,
                                messages=({"role": "user", "content": TEST_PROMPT},))
        started = time.monotonic()
        try:
            reply = await asyncio.wait_for(_collect(chat_model, request_), wait)
        except ModelError as e:
            return JSONResponse({"ok": False, "role": body.role, "model": model.model,
                                 "kind": e.kind, "message": str(e)})
        except TimeoutError:
            return JSONResponse({"ok": False, "role": body.role, "model": model.model,
                                 "kind": "timeout", "message":
                                 f"No answer from {model.model} within {wait:.0f} s. "
                                 "Check the server address, or allow more time under "
                                 "Timeouts."})
        return JSONResponse({"ok": True, "role": body.role, "model": model.model,
                             "reply": reply[:200],
                             "ms": round((time.monotonic() - started) * 1000)})

    return [
        Route("/api/settings", get_settings, methods=["GET"], name="get_settings"),
        Route("/api/settings/models", put_models, methods=["PUT"], name="put_settings_models"),
        provider_route(_changed, secrets),
        Route("/api/settings/keys", put_key, methods=["PUT"], name="put_settings_key"),
        Route("/api/settings/keys", delete_key, methods=["DELETE"], name="delete_settings_key"),
        Route("/api/settings/test", test_connection, methods=["POST"], name="test_settings"),
        Route("/api/settings/privacy", put_privacy, methods=["PUT"], name="put_settings_privacy"),
        Route("/api/settings/review", put_review, methods=["PUT"], name="put_settings_review"),
        Route("/api/settings/timeouts", put_timeouts, methods=["PUT"],
              name="put_settings_timeouts"),
    ]


async def _collect(chat_model: ChatModel, request: ModelRequest) -> str:
    parts: list[str] = []
    async for event in chat_model.stream(request):
        if isinstance(event, StreamedText):
            parts.append(event.text)
    return "".join(parts).strip()
