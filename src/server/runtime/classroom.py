"""The one ``TurnRunner`` of an app, built from its services on first use.

Routes, the workbench (steers, wake-ups) and the library (``hooks``: the extraction trigger)
all reach the same runner through ``turn_runner(services)``.
"""

from __future__ import annotations

from studyhall.server.runtime.prompts import load_prompt
from studyhall.server.runtime.turns import TurnRunner
from studyhall.server.services import Services

_KEY = "turns"


def turn_runner(services: Services) -> TurnRunner:
    runner = services.extras.get(_KEY)
    if isinstance(runner, TurnRunner):
        return runner
    services.require("the turn runner", "chat_store", "chat_model", "clock", "ids")
    assert services.chat_store and services.chat_model and services.clock and services.ids
    runner = TurnRunner(
        chat_store=services.chat_store,
        chat_model=services.chat_model,
        settings_store=services.settings_store,
        clock=services.clock,
        ids=services.ids,
        prompt=load_prompt,
    )
    services.extras[_KEY] = runner
    services.on_shutdown.append(runner.shutdown)
    return runner
