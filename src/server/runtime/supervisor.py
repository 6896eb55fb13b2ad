"""The one owner of the app's background tasks: each is named, a failure is logged with that
name (never lost), and on shutdown every task is cancelled and awaited within a bound.

Runners keep their own handles to the tasks they must find again (a job to abort, a run to
wait for); the supervisor is what starts them, and what stops them all.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, TypeVar

log = logging.getLogger("studyhall.tasks")

T = TypeVar("T")

# Every task here stops at its next await once cancelled; a task still running after this long
# is stuck in something that ignores cancellation, and shutdown does not wait for it.
STOP_WITHIN_SECONDS = 1.5


class Supervisor:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing = False

    @property
    def closing(self) -> bool:
        """Shutting down: new work is cancelled before it starts."""
        return self._closing

    def spawn(self, name: str, work: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """Start ``work`` as a task named ``name`` (say what it is and for whom:
        ``"job job_x"``, ``"title chat_y"``)."""
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._finished)
        if self._closing:
            _cancel(task)
        return task

    def names(self) -> list[str]:
        """The tasks in flight, by name (sorted)."""
        return sorted(task.get_name() for task in self._tasks)

    def __len__(self) -> int:
        return len(self._tasks)

    async def idle(self) -> None:
        """Wait until no task runs, including tasks started meanwhile (tests, benchmarks)."""
        while self._tasks:
            await asyncio.wait(list(self._tasks))

    def cancel_all(self) -> None:
        """Stop taking work and cancel every task (each stops at its next await)."""
        self._closing = True
        for task in list(self._tasks):
            _cancel(task)

    async def aclose(self, timeout: float = STOP_WITHIN_SECONDS) -> list[str]:
        """Cancel every task and wait for them, at most ``timeout`` seconds; returns the names
        of the tasks that had not ended by then (logged)."""
        self.cancel_all()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        # A task may start another while it unwinds (an after-turn hook): loop until none is
        # left, each new one cancelled by ``spawn``.
        while self._tasks and (left := deadline - loop.time()) > 0:
            await asyncio.wait(list(self._tasks), timeout=left)
        stuck = self.names()
        if stuck:
            log.warning("shutdown did not wait for %d task(s) still running: %s",
                        len(stuck), ", ".join(stuck))
        return stuck

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        error = task.exception()  # retrieved here, so asyncio never reports it as lost
        if error is not None:
            log.error("[task %s] failed: %s: %s", task.get_name(), type(error).__name__, error,
                      exc_info=error)


def _cancel(task: asyncio.Task[Any]) -> None:
    # On the loop's next turn, not now: a task started a moment ago has not run its first step,
    # and cancelling it now would skip its body, with the except/finally that records the stop
    # (a job marked queued, a run marked aborted). Cancelled after that step, it stops at its
    # first await and its own clean-up runs.
    task.get_loop().call_soon(task.cancel)
