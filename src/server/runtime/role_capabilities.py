"""``RoleCapabilities``: what each role's configured model can do, for the agents (a sync
lookup in a turn) and for Settings (per server and model, with the roles that use it).

``for_role(role)`` never waits: it answers from what is known for the role's current model and
address, and on a miss returns ``UNKNOWN`` and asks the server in the background (the probe's
description routes only, never a test call). A setting that changes is a new model/address
pair, so it is asked anew; answers for pairs no longer configured are dropped when Settings
looks.
"""

from __future__ import annotations

import asyncio
from typing import Any

from studyhall.core.contracts.model_capabilities import UNKNOWN, ModelCapabilities
from studyhall.core.contracts.servers import is_near_model
from studyhall.core.contracts.settings import MODEL_ROLES, ModelRole, RoleModel
from studyhall.core.ports.models import CapabilityProbe
from studyhall.core.ports.storage import SettingsStore
from studyhall.server.runtime.supervisor import Supervisor

Pair = tuple[str, str | None]  # (model id, server address)
# Roles that are not chat roles have no tools or JSON to probe.
_NOT_CHAT: frozenset[ModelRole] = frozenset({"transcriber"})


class RoleCapabilities:
    def __init__(self, settings_store: SettingsStore, probe: CapabilityProbe,
                 supervisor: Supervisor) -> None:
        self._settings = settings_store
        self._probe = probe
        self._supervisor = supervisor
        self._known: dict[Pair, ModelCapabilities] = {}
        self._asking: set[Pair] = set()

    def _pair(self, role: ModelRole) -> Pair:
        model = self._settings.load().model_for(role)
        return (model.model, model.api_base)

    def for_role(self, role: ModelRole) -> ModelCapabilities:
        """What the role's model can do, as known now (``UNKNOWN`` while it is being asked)."""
        pair = self._pair(role)
        known = self._known.get(pair)
        if known is not None:
            return known
        if pair not in self._asking and not self._supervisor.closing:
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                return UNKNOWN  # no loop (a CLI lookup): nothing to ask in the background
            self._asking.add(pair)
            self._supervisor.spawn(f"capabilities {pair[0]}", self._learn(pair))
        return UNKNOWN

    async def startup(self) -> None:
        """The app starts: each chat role's local server is asked now, in the background, so
        the first turn already knows (a prober on a model that calls no tools quizzes as JSON
        from its first step). Describing a server is one cheap GET; nothing is called."""
        settings = await asyncio.to_thread(self._settings.load)
        for role in MODEL_ROLES:
            if role not in _NOT_CHAT and is_near_model(settings.model_for(role)):
                self.for_role(role)

    async def of_role(self, role: ModelRole, *, check: bool = False) -> ModelCapabilities:
        return await self._ask(self._pair(role), check=check)

    async def _learn(self, pair: Pair) -> None:
        try:
            await self._ask(pair, check=False)
        finally:
            self._asking.discard(pair)

    async def _ask(self, pair: Pair, *, check: bool) -> ModelCapabilities:
        found = await self._probe.capabilities(pair[0], pair[1], check=check)
        self._known[pair] = found
        return found

    async def servers(self, *, check: bool = False) -> list[dict[str, Any]]:
        """One row per configured (model, address): the roles on it and what it can do, for
        Settings. Answers for pairs no longer configured are forgotten."""
        settings = await asyncio.to_thread(self._settings.load)
        roles: dict[Pair, list[ModelRole]] = {}
        for role in MODEL_ROLES:
            if role in _NOT_CHAT:
                continue
            model = settings.model_for(role)
            roles.setdefault((model.model, model.api_base), []).append(role)
        await self._probe.forget_all_but(set(roles))
        self._known = {p: c for p, c in self._known.items() if p in roles}
        found = await asyncio.gather(*(self._ask(pair, check=check) for pair in roles))
        return [{"model": pair[0], "api_base": pair[1], "roles": list(on),
                 "near": is_near_model(RoleModel(model=pair[0], api_base=pair[1])),
                 **_shown(caps)}
                for (pair, on), caps in zip(roles.items(), found, strict=True)]


def _shown(caps: ModelCapabilities) -> dict[str, Any]:
    return {"tools": caps.tools, "json_schema": caps.json_schema,
            "context_tokens": caps.context_tokens, "note": caps.note}
