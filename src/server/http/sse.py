"""Server-Sent Events for every stream: runtime modules yield events — typed ``WireEvent``
models (``core/contracts/stream.py``; Ask's) or a ``name`` and a JSON-able ``data`` — routes hand
them to ``event_stream``, and only this module writes the wire.

The response sends a ``: ping`` comment after ``PING_SECONDS`` of quiet, closes the event
source when the client goes away (a turn behind it runs on), answers HEAD without streaming,
and is never cached. Once the status line is out a failure can only be said as the stream's
last event: ``error``, the one ``StreamError`` shape (``{"error", "message"}``).

Our own small response rather than sse-starlette 3.7: measured in bench/sse.py's harness, its
task group and per-send cancel scope doubled the first-byte overhead and cost 2.5x per event;
this one adds ~3 µs to the first byte of a bare ``StreamingResponse`` and encodes faster (orjson).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncGenerator, AsyncIterable, Mapping
from typing import Any, Protocol, cast

import orjson
from starlette.responses import Response, StreamingResponse
from starlette.types import Message, Receive, Scope, Send
from studyhall.core.contracts.stream import StreamError, WireEvent
from studyhall.core.errors import StudyhallError
from studyhall.server.http.errors import INTERNAL_MESSAGE, error_body

log = logging.getLogger("studyhall.http")

PING_SECONDS = 15.0
PING = b": ping\n\n"
HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
_ORJSON_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME  # datetimes go through ``str`` as they did


class StreamEvent(Protocol):
    """An event of a stream that documents no event names: its name and its JSON payload."""

    @property
    def name(self) -> str: ...

    @property
    def data(self) -> Mapping[str, Any]: ...


class TypedEvent(Protocol):
    """What a runtime module yields when it is not a ``WireEvent`` itself: a value that gives
    its typed wire model (a turn's events carry whole message parts, the wire only their view)."""

    def wire_event(self) -> WireEvent: ...


def encode(name: str, data: Mapping[str, Any]) -> bytes:
    """One event on the wire: ``event: <name>``, one compact JSON ``data:`` line, a blank line."""
    return _frame(name, _json(data))


def encode_event(event: WireEvent) -> bytes:
    """A typed event on the wire, its data as its model serializes it (once)."""
    return _frame(event.name, event.wire())


def _frame(name: str, data: bytes) -> bytes:
    return b"event: " + name.encode() + b"\ndata: " + data + b"\n\n"


def event_stream(events: AsyncIterable[StreamEvent | TypedEvent | WireEvent], *,
                 ping: float = PING_SECONDS) -> Response:
    """The events as a ``text/event-stream`` response."""
    return _EventStreamResponse(_frames(events), ping=ping)


class _EventStreamResponse(StreamingResponse):
    media_type = "text/event-stream"

    def __init__(self, frames: AsyncGenerator[bytes, None], *, ping: float) -> None:
        super().__init__(frames, headers=HEADERS)
        self._frames = frames
        self._ping_every = ping
        self._lock = asyncio.Lock()
        self._last_send = 0.0  # loop time of the last message out
        self._ended = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            if scope["type"] == "http" and scope.get("method") == "HEAD":
                # Headers only: an endless stream would never let a HEAD request finish.
                await send({"type": "http.response.start", "status": self.status_code,
                            "headers": self.raw_headers})
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                return
            # Starlette cancels ``stream_response`` when the client disconnects.
            await super().__call__(scope, receive, send)
        finally:
            await self._frames.aclose()  # the source's cleanup runs now, not when collected

    async def stream_response(self, send: Send) -> None:
        loop = asyncio.get_running_loop()
        pinging: set[asyncio.Task[None]] = set()
        timer: asyncio.TimerHandle | None = None

        async def tracked(message: Message) -> None:
            nonlocal timer
            async with self._lock:  # a ping never lands inside the stream's own messages
                self._last_send = loop.time()
                self._ended = message["type"] == "http.response.body" and not message.get(
                    "more_body", False)
                await send(message)
            if timer is None and message["type"] == "http.response.body":
                # Armed after the first event is out, so the first byte never waits for it.
                timer = loop.call_at(self._last_send + self._ping_every, due)

        async def ping() -> None:
            async with self._lock:
                if not self._ended and loop.time() - self._last_send >= self._ping_every:
                    self._last_send = loop.time()
                    await send({"type": "http.response.body", "body": PING, "more_body": True})

        def due() -> None:  # a timer, not a task: nothing to pay while events flow
            nonlocal timer
            if self._ended:
                return
            if loop.time() - self._last_send >= self._ping_every:
                task = loop.create_task(ping())
                pinging.add(task)
                task.add_done_callback(pinging.discard)
            timer = loop.call_at(max(self._last_send, loop.time()) + self._ping_every, due)

        try:
            await super().stream_response(tracked)
        finally:
            self._ended = True
            if timer is not None:
                timer.cancel()
            for task in pinging:
                task.cancel()


async def _frames(events: AsyncIterable[StreamEvent | TypedEvent | WireEvent]
                  ) -> AsyncGenerator[bytes, None]:
    try:
        async for event in events:
            if isinstance(event, WireEvent):
                yield encode_event(event)
            elif (typed := getattr(event, "wire_event", None)) is not None:
                yield encode_event(typed())
            else:  # a stream that documents no event names (``ANY_EVENTS``)
                raw = cast(StreamEvent, event)
                yield encode(raw.name, raw.data)
    except StudyhallError as e:
        yield encode_event(StreamError.model_validate(error_body(e)))
    except Exception:
        log.exception("[http] a stream failed")
        yield encode_event(StreamError(error="internal", message=INTERNAL_MESSAGE))
    finally:
        close = getattr(events, "aclose", None)
        if close is not None:
            await close()


def _json(data: Mapping[str, Any]) -> bytes:
    try:
        return orjson.dumps(data, default=str, option=_ORJSON_OPTIONS)
    except TypeError:  # beyond orjson (an int over 64 bits, a non-string key): the slow path
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str).encode()
