"""Helpers for workbench flow tests: scripted sessions that start jobs, an answer function whose
calls of one role wait at a gate, and waiting for the app to go quiet."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from studyhall.core.contracts.models import ModelEvent, ModelRequest
from studyhall.core.ports.models import ChatModel
from studyhall.server.runtime.runtime import Runtime

PROBE = {"tool_calls": [{"name": "probe_done", "id": "probe", "arguments": {
    "floor": "arrays", "ceiling": "trees", "goal": "understand heaps", "summary": "keen"}}]}


def job_call(kind: str, args: dict[str, Any], cid: str) -> dict[str, Any]:
    return {"name": kind, "arguments": args, "id": cid}


def session_script(calls: list[dict[str, Any]], *, wakes: int = 1, **roles: Any) -> dict[str, Any]:
    """Prober hands off at once; the teacher starts ``calls`` and keeps teaching; then one
    teacher answer per wake turn. ``roles`` are the sub-agents' script entries."""
    opening = ([{"text": "Let me get some help with that.", "tool_calls": calls},
                {"text": "Meanwhile: a heap is a complete binary tree."}] if calls
               else [{"text": "A heap is a complete binary tree."}])
    teacher = [
        *opening,
        *[{"text": f"Wake reply {n}: the helpers are back."} for n in range(1, wakes + 1)],
    ]
    return {"prober": [PROBE], "teacher": teacher, "labeler": [{"text": "Heaps"}] * 3, **roles}


def write(path: Path, script: dict[str, Any]) -> Path:
    path.write_text(json.dumps(script))
    return path


class RoleGate:
    """An answer function for ``FunctionChatModel`` wrapping a ``ChatModel``: calls of ``role``
    wait at ``gate`` first (so a test can act while a sub-agent's model call is in flight) and
    count whether they were cancelled."""

    def __init__(self, inner: ChatModel, role: str, *, skip: int = 0) -> None:
        self.inner = inner
        self.role = role
        self.skip = skip  # let this many calls of the role through ungated
        self.gate = asyncio.Event()
        self.entered = asyncio.Event()
        self.cancelled = 0
        self.calls = 0

    async def __call__(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        if request.role == self.role:
            self.calls += 1
            if self.calls > self.skip:
                self.entered.set()
                try:
                    await self.gate.wait()
                except asyncio.CancelledError:
                    self.cancelled += 1
                    raise
        async for event in self.inner.stream(request):
            yield event


async def wait_for(predicate: Callable[[], bool], timeout: float = 20.0) -> None:
    """Poll ``predicate`` on the event loop until it holds (the app works in tasks)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("the condition did not hold in time")
        await asyncio.sleep(0.01)


async def settle(runtime: Runtime) -> None:
    """Wait until no job, no delivery, no turn and no after-turn hook is in flight."""
    for _ in range(50):
        await runtime.supervisor.idle()
        await asyncio.sleep(0)
        if not len(runtime.supervisor):
            return
    raise AssertionError("the app did not go quiet")


def steers(chat: dict[str, Any]) -> list[dict[str, Any]]:
    """The job steers in a chat view, in order."""
    return [m for m in chat["messages"]
            if any(p.get("type") == "steer" and p.get("kind") == "job" for p in m["parts"])]


def artifact(message: dict[str, Any]) -> dict[str, Any]:
    return next(p["data"] for p in message["parts"]
                if p.get("type") == "data" and p.get("name") == "artifact")
