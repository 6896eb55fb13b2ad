"""The provider step of Settings: ``PUT /api/settings/provider`` puts every role on one provider.

``{"provider"}`` for a hosted provider (its strong and cheap models, its speech-to-text model or
transcription off with the reason); ``{"provider", "model", "api_base"?}`` for a server on this
machine or the local network (Ollama, LM Studio, llama.cpp): the named model for every chat
role, at the address given (blank: the server's usual one). The table is the core's
(``core.contracts.providers``); per-role overrides stay under ``PUT /api/settings/models``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import Field
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from studyhall.core.contracts.api_keys import clean_key_name
from studyhall.core.contracts.providers import (
    MAX_MODEL_NAME,
    PROVIDER_CHOICES,
    ProviderChoice,
    ProviderId,
    chosen_provider,
    local_address,
    local_model_id,
    provider_choice,
    with_provider,
)
from studyhall.core.contracts.servers import MAX_ADDRESS, SERVER_ADDRESS_PATTERN
from studyhall.core.contracts.settings import Settings
from studyhall.core.errors import InvalidInput
from studyhall.core.ports.storage import SecretStore
from studyhall.server.http.bodies import read_model
from studyhall.server.http.body_model import BodyModel
from studyhall.server.http.openapi import describe

NOT_APPLIED = "The provider was not changed"


class ProviderIn(BodyModel):
    provider: ProviderId
    # A local server only: the model it serves (as it lists it) and its address.
    model: str | None = Field(default=None, max_length=MAX_MODEL_NAME)
    api_base: str | None = Field(default=None, max_length=MAX_ADDRESS,
                                 json_schema_extra={"pattern": SERVER_ADDRESS_PATTERN})


def provider_view(settings: Settings) -> dict[str, Any]:
    """What the provider step shows: the choices with the models each sets, the one in use."""
    return {
        "provider": chosen_provider(settings),
        "provider_choices": [_choice(c) for c in PROVIDER_CHOICES],
        "transcription_off": settings.transcription_off,
    }


def _choice(c: ProviderChoice) -> dict[str, Any]:
    return {"id": c.id, "label": c.label, "local": c.local, "key_name": None if c.local else c.id,
            "strong": c.strong, "cheap": c.cheap, "transcriber": c.transcriber,
            "no_transcriber": c.no_transcriber, "address": c.address, "key_hint": c.key_hint}


def provider_route(change: Callable[[Callable[[Settings], Settings]], Awaitable[Response]],
                   secrets: SecretStore) -> Route:
    """``change`` saves a settings change and answers with the Settings view."""

    @describe(summary="Put every role on one provider (a local server: its model and address)",
              request=ProviderIn, responses={400: "Unknown provider, or the local server's "
                                                  "model or address is missing or not valid"})
    async def put_provider(request: Request) -> Response:
        """One step from no models to every role set.

        Every chat role gets the provider's models (strong for the prober and teacher, cheap
        for the extractor, auditor and labeler); the transcriber its speech-to-text model, or
        transcription is off with the reason. A local server (ollama, lm_studio, llamacpp)
        needs ``model``; ``api_base`` is its address on this computer or the local network
        (left out: the server's usual one). Answers with the Settings view."""
        body: ProviderIn = await read_model(request, ProviderIn, refused=NOT_APPLIED)
        choice = provider_choice(body.provider)
        if not choice.local:
            if body.model is not None or body.api_base is not None:
                raise InvalidInput(f"{NOT_APPLIED}: {choice.label} is reached at its own "
                                   "address with its own models; set one role's model or "
                                   "server under Advanced.")
            return await change(lambda current: with_provider(current, choice))
        model = local_model_id(choice, body.model)
        address = local_address(choice, body.api_base)
        if address.secret is not None:  # "user:key@" typed into the address: keep it as its key
            await asyncio.to_thread(secrets.set, clean_key_name(address.url), address.secret)
        return await change(lambda current: with_provider(current, choice, model, address.url))

    return Route("/api/settings/provider", put_provider, methods=["PUT"],
                 name="put_settings_provider")
