"""A real Studyhall server whose model stalls right after the prober's first tool call.

Run as a child process by the kill-mid-stream test: the production app (build_services +
run_server over uvicorn) with one wrapper around the model, so the test can SIGKILL the
server while a turn is provably mid-stream (a question shown, the provider still "talking").
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from typing import Any

from studyhall.core.contracts.models import ModelRequest, ToolCallEvent
from studyhall.server.app import build_services
from studyhall.server.config import load_config
from studyhall.server.serve import run_server


class StallAfterToolCall:
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def stream(self, request: ModelRequest) -> AsyncIterator[Any]:
        async for event in self.inner.stream(request):
            yield event
            if request.role == "prober" and isinstance(event, ToolCallEvent):
                await asyncio.Event().wait()  # the provider never finishes this stream


def main() -> int:
    config = load_config()
    services = build_services(config)
    services.chat_model = StallAfterToolCall(services.chat_model)
    return run_server(config, services=services)


if __name__ == "__main__":
    sys.exit(main())
