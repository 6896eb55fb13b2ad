"""A real Studyhall server whose answerer streams slowly and then never finishes.

Run as a child process by the Ask kill test (``python -m tests.support.slow_ask_server``, with
``STUDYHALL_DATA_DIR`` and ``STUDYHALL_SCRIPT``): the production app (build_services +
run_server over uvicorn) with the test stand-ins for the bundled MiniLM, and one wrapper around
the scripted model: the answerer's text goes out in 10-character pieces a few milliseconds
apart, then the stream hangs — so the test can SIGKILL the server while an answer is provably
mid-stream.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from dataclasses import replace

from studyhall.core.contracts.models import ModelEvent, ModelRequest, StreamedText
from studyhall.core.ports.models import ChatModel
from studyhall.server.app import build_runtime, build_services
from studyhall.server.config import load_config
from studyhall.server.serve import run_server

from tests.support.ask_window import fast_search
from tests.support.chat_model import FunctionChatModel

PIECE = 10


def slow_endless_answerer(inner: ChatModel) -> FunctionChatModel:
    """``inner``, except that the answerer's text trickles out and its stream never ends."""

    async def answer(request: ModelRequest) -> AsyncIterator[ModelEvent]:
        async for event in inner.stream(request):
            if request.role != "answerer":
                yield event
            elif isinstance(event, StreamedText):
                for at in range(0, len(event.text), PIECE):
                    await asyncio.sleep(0.005)
                    yield StreamedText(text=event.text[at:at + PIECE])
        if request.role == "answerer":
            await asyncio.Event().wait()  # the provider never finishes this stream

    return FunctionChatModel(answer)


def main() -> int:
    config = load_config()
    services = fast_search(build_services(config))
    services = replace(services, chat_model=slow_endless_answerer(services.chat_model))
    return run_server(config, runtime=build_runtime(services))


if __name__ == "__main__":
    sys.exit(main())
