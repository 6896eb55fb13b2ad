"""A hand-written ChatModel for loop/turn tests: each call plays the next list of events."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from typing import Any

from studyhall.core.contracts.chat import Usage
from studyhall.core.contracts.models import (
    FinishEvent,
    ModelEvent,
    ModelRequest,
    TextDelta,
    ToolCallEvent,
    UsageEvent,
)

Step = Sequence[ModelEvent] | BaseException


def say(*chunks: str, calls: Sequence[ToolCallEvent] = (), tokens: int | None = 5) -> list[ModelEvent]:
    events: list[ModelEvent] = [TextDelta(c) for c in chunks]
    events.extend(calls)
    events.append(UsageEvent(Usage(input_tokens=tokens, output_tokens=tokens), model="fake/m"))
    events.append(FinishEvent("tool_calls" if calls else "stop"))
    return events


def tool(name: str, args: dict[str, Any] | None = None, cid: str = "", raw: str = "") -> ToolCallEvent:
    return ToolCallEvent(id=cid or f"call_{name}", name=name, arguments=args, raw=raw or json.dumps(args))


class FakeModel:
    """Plays ``steps`` in order, one per call; records every request. Exhausted -> AssertionError."""

    def __init__(self, *steps: Step, by_role: dict[str, list[Step]] | None = None) -> None:
        self._steps = list(steps)
        self._by_role = {k: list(v) for k, v in (by_role or {}).items()}
        self.requests: list[ModelRequest] = []
        self.gate: asyncio.Event | None = None  # when set, each call waits for it first

    def of(self, role: str) -> list[ModelRequest]:
        return [r for r in self.requests if r.role == role]

    def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        self.requests.append(request)
        queue = self._by_role.get(request.role, self._steps)
        if not queue:
            raise AssertionError(f"unexpected model call for role {request.role}")
        step = queue.pop(0)
        return self._play(step)

    async def _play(self, step: Step) -> AsyncIterator[ModelEvent]:
        if self.gate is not None:
            await self.gate.wait()
        if isinstance(step, BaseException):
            raise step
        for event in step:
            await asyncio.sleep(0)
            yield event
