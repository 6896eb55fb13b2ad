"""At start-up each chat role on a local server is asked what its model can do, in the
background, so the first turn already knows; hosted roles are never asked."""

from __future__ import annotations

import asyncio

from studyhall.adapters.fakes.settings import InMemorySettingsStore
from studyhall.core.contracts.model_capabilities import UNKNOWN, ModelCapabilities
from studyhall.core.contracts.settings import RoleModel, Settings
from studyhall.server.runtime.role_capabilities import RoleCapabilities
from studyhall.server.runtime.supervisor import Supervisor

SMALL = ModelCapabilities(tools=True, json_schema=True, context_tokens=8192)
LOCAL = RoleModel(model="openai/smollm2", api_base="http://127.0.0.1:8080/v1")


class CountingProbe:
    def __init__(self) -> None:
        self.asked: list[tuple[str, str | None]] = []

    async def capabilities(self, model_id, api_base, *, check=False):  # type: ignore[no-untyped-def]
        self.asked.append((model_id, api_base))
        return SMALL

    async def forget_all_but(self, pairs):  # type: ignore[no-untyped-def]
        return None


async def test_local_roles_are_known_before_the_first_turn() -> None:
    settings = Settings()
    settings = settings.model_copy(update={"models": {**settings.models, "prober": LOCAL}})
    probe, supervisor = CountingProbe(), Supervisor()
    caps = RoleCapabilities(InMemorySettingsStore(settings), probe, supervisor)
    await caps.startup()
    for _ in range(50):
        if caps.for_role("prober") != UNKNOWN:
            break
        await asyncio.sleep(0.01)
    assert caps.for_role("prober") == SMALL
    assert probe.asked == [(LOCAL.model, LOCAL.api_base)]  # the hosted roles were not asked
    await supervisor.aclose()
