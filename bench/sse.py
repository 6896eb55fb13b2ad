"""Benchmark: the SSE helper's own cost, first body byte and whole stream, called as uvicorn calls
it (ASGI spec 2.3), against the framing every route wrote before it (Starlette's bare
``StreamingResponse`` with ``json.dumps``), interleaved so machine load hits both alike.
Run: ``.venv/bin/python bench/sse.py [--events 200] [--rounds 3000]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from starlette.responses import Response, StreamingResponse
from studyhall.server.http.sse import event_stream


@dataclass(frozen=True)
class Event:
    name: str
    data: dict[str, Any]


def _events(n: int) -> AsyncIterator[Event]:
    async def gen() -> AsyncIterator[Event]:
        yield Event("message-start", {"message_id": "msg_1234567890", "role": "assistant",
                                      "agent": "prober"})
        for _ in range(n):
            yield Event("text-delta", {"message_id": "msg_1234567890", "text": "Hello wörld, "})
        yield Event("finish", {"reason": "stop", "phase": "probing", "pending": []})

    return gen()


def before(n: int) -> Response:
    async def body() -> AsyncIterator[bytes]:
        async for event in _events(n):
            data = json.dumps(event.data, ensure_ascii=False, separators=(",", ":"), default=str)
            yield f"event: {event.name}\ndata: {data}\n\n".encode()

    return StreamingResponse(body(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def helper(n: int) -> Response:
    return event_stream(_events(n))


async def _once(response: Response) -> tuple[float, float]:
    first: float | None = None
    done = asyncio.Event()

    async def receive() -> dict[str, Any]:
        await done.wait()
        return {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        nonlocal first
        if message["type"] == "http.response.body" and first is None:
            first = time.perf_counter()

    scope = {"type": "http", "method": "GET", "path": "/", "headers": [],
             "asgi": {"spec_version": "2.3"}}
    start = time.perf_counter()
    await response(scope, receive, send)
    end = time.perf_counter()
    done.set()
    assert first is not None
    return (first - start) * 1000, (end - start) * 1000


async def _main(events: int, rounds: int) -> None:
    kinds: dict[str, Callable[[int], Response]] = {"before (bare StreamingResponse)": before,
                                                   "server/http/sse.py": helper}
    results: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in kinds}
    for i in range(rounds):
        order = list(kinds.items()) if i % 2 else list(reversed(kinds.items()))
        for name, make in order:
            first, whole = await _once(make(events))
            if i >= rounds // 20:  # warm-up
                results[name][0].append(first)
                results[name][1].append(whole)
    for name, (first, whole) in results.items():
        print(f"{name}: first body byte median {statistics.median(first) * 1000:.1f} µs, "
              f"{events}-event stream median {statistics.median(whole) * 1000:.1f} µs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3000)
    args = parser.parse_args()
    asyncio.run(_main(args.events, args.rounds))


if __name__ == "__main__":
    main()
