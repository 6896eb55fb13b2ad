"""A real Studyhall server whose model stalls right after the prober's first tool call.

Run as a child process by the kill-mid-stream test: the production app (build_services +
run_server over uvicorn) with one wrapper around the model, so the test can SIGKILL the
server while a turn is provably mid-stream (a question shown, the provider still "talking").
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from dataclasses import replace

from studyhall.core.contracts.models import ModelEvent, ModelRequest, ToolCallEvent
from studyhall.core.ports.models import ChatModel
from studyhall.server.app import build_runtime, build_services
from studyhall.server.config import load_config
from studyhall.server.serve import run_server

from tests.support.chat_model import FunctionChatModel


def stall_after_tool_call(inner: ChatModel) -> FunctionChatModel:
    """``inner``, except that the prober's stream never ends once it has sent a tool call."""

    async def answer(request: ModelRequest) -> AsyncIterator[ModelEvent]:
        async for event in inner.stream(request):
            yield event
            if request.role == "prober" and isinstance(event, ToolCallEvent):
                await asyncio.Event().wait()  # the provider never finishes this stream

    return FunctionChatModel(answer)


def main() -> int:
    config = load_config()
    services = build_services(config)
    services = replace(services, chat_model=stall_after_tool_call(services.chat_model))
    return run_server(config, runtime=build_runtime(services))


if __name__ == "__main__":
    sys.exit(main())
