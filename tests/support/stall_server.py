"""A real Studyhall server whose model never answers the roles named in ``STALL_ROLES``
(comma-separated), so work stays running: a job's sub-agent, an extraction run, a model-mode
notes import. Run as a child process by the shutdown test and ``bench/shutdown.py``: the
production app (build_services + build_runtime + run_server over uvicorn) with one wrapper
around the model.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator
from dataclasses import replace

from studyhall.core.contracts.models import ModelEvent, ModelRequest
from studyhall.core.ports.models import ChatModel
from studyhall.server.app import build_runtime, build_services
from studyhall.server.config import load_config
from studyhall.server.serve import run_server

from tests.support.chat_model import FunctionChatModel

STALL_ENV = "STALL_ROLES"


def stall_roles(inner: ChatModel, roles: set[str]) -> FunctionChatModel:
    """``inner``, except that a call of one of ``roles`` never answers (until cancelled)."""

    async def answer(request: ModelRequest) -> AsyncIterator[ModelEvent]:
        if request.role in roles:
            await asyncio.Event().wait()  # the provider never answers this call
        async for event in inner.stream(request):
            yield event

    return FunctionChatModel(answer)


def main() -> int:
    config = load_config()
    roles = {r.strip() for r in os.environ.get(STALL_ENV, "").split(",") if r.strip()}
    services = build_services(config)
    services = replace(services, chat_model=stall_roles(services.chat_model, roles))
    return run_server(config, runtime=build_runtime(services))


if __name__ == "__main__":
    sys.exit(main())
