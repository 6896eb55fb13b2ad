"""The one SSE helper: exact framing, pings while quiet, a failure said as the last event, and a
client that leaves closes the event source without stopping the work that feeds it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from starlette.responses import Response
from studyhall.core.errors import NotFound
from studyhall.server.http.sse import event_stream


@dataclass(frozen=True)
class Event:
    name: str
    data: dict[str, Any]


class Asgi:
    """Calls a response as an ASGI server would; ``leave()`` is the client hanging up."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self._gone = asyncio.Event()

    def leave(self) -> None:
        self._gone.set()

    async def run(self, response: Response) -> None:
        async def receive() -> dict[str, Any]:
            await self._gone.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            self.messages.append(message)

        scope = {"type": "http", "method": "GET", "path": "/api/x", "headers": []}
        await asyncio.wait_for(response(scope, receive, send), 5)

    @property
    def headers(self) -> dict[str, str]:
        start = self.messages[0]
        return {k.decode(): v.decode() for k, v in start["headers"]}

    @property
    def body(self) -> bytes:
        return b"".join(m.get("body", b"") for m in self.messages[1:])


async def _events(*events: Event) -> AsyncIterator[Event]:
    for event in events:
        yield event


async def test_events_are_framed_exactly_and_never_cached() -> None:
    asgi = Asgi()
    await asgi.run(event_stream(_events(Event("text-delta", {"message_id": "m1", "text": "Hé\n"}),
                                        Event("finish", {"reason": "stop", "pending": []}))))
    assert asgi.body == (b'event: text-delta\ndata: {"message_id":"m1","text":"H\xc3\xa9\\n"}\n\n'
                         b'event: finish\ndata: {"reason":"stop","pending":[]}\n\n')
    assert asgi.headers["content-type"].startswith("text/event-stream")
    assert asgi.headers["cache-control"] == "no-store"


async def test_a_quiet_stream_is_kept_alive_with_pings() -> None:
    async def slow() -> AsyncIterator[Event]:
        yield Event("a", {})
        await asyncio.sleep(0.35)
        yield Event("b", {})

    asgi = Asgi()
    await asgi.run(event_stream(slow(), ping=0.1))
    blocks = asgi.body.decode().split("\n\n")
    assert blocks[0] == "event: a\ndata: {}" and blocks[-2] == "event: b\ndata: {}"
    assert blocks.count(": ping") >= 2  # comments: every SSE client skips them


async def test_a_failure_after_the_status_line_is_the_last_event() -> None:
    async def failing() -> AsyncIterator[Event]:
        yield Event("sources", {"case": "MATCH"})
        raise NotFound("No source src_1; import it again.")

    asgi = Asgi()
    await asgi.run(event_stream(failing()))
    last = asgi.body.decode().strip().split("\n\n")[-1]
    assert last.startswith("event: error\ndata: ")
    body = json.loads(last.split("data: ", 1)[1])
    assert body == {"error": "NotFound", "message": "No source src_1; import it again."}


async def test_an_unexpected_failure_ends_the_stream_with_an_internal_error() -> None:
    async def broken() -> AsyncIterator[Event]:
        raise RuntimeError("secret internals")
        yield  # pragma: no cover

    asgi = Asgi()
    await asgi.run(event_stream(broken()))
    assert b"secret internals" not in asgi.body
    assert json.loads(asgi.body.decode().split("data: ", 1)[1])["error"] == "internal"


async def test_a_client_that_leaves_closes_the_source_but_not_the_work_behind_it() -> None:
    queue: asyncio.Queue[Event] = asyncio.Queue()
    closed = asyncio.Event()

    async def work() -> None:  # like a turn: runs in its own task, feeds a queue
        for n in range(3):
            await queue.put(Event("text-delta", {"n": n}))
            await asyncio.sleep(0.05)

    async def source() -> AsyncIterator[Event]:
        try:
            while True:
                yield await queue.get()
        finally:
            closed.set()

    asgi = Asgi()
    task = asyncio.create_task(work())
    response = event_stream(source())
    serving = asyncio.create_task(asgi.run(response))
    while b"event: text-delta" not in asgi.body:
        await asyncio.sleep(0.01)
    asgi.leave()
    await serving  # the response ends promptly once the client is gone
    assert closed.is_set()
    await task  # the work was not cancelled with the stream
    assert task.done() and not task.cancelled()


async def test_head_gets_the_headers_and_never_starts_the_stream() -> None:
    started = asyncio.Event()

    async def endless() -> AsyncIterator[Event]:
        started.set()
        while True:
            await asyncio.sleep(1)
            yield Event("activity", {})

    asgi = Asgi()
    response = event_stream(endless())
    scope = {"type": "http", "method": "HEAD", "path": "/api/x", "headers": []}

    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        asgi.messages.append(message)

    await asyncio.wait_for(response(scope, receive, send), 5)
    assert asgi.headers["cache-control"] == "no-store" and asgi.body == b""
    assert not started.is_set()
