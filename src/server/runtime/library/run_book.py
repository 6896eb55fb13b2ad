"""The book of background runs a runner keeps (extraction runs, import runs): look one up,
list them newest first, wait for one, cancel one, and forget the oldest finished ones."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Generic, Protocol, TypeVar

from studyhall.core.errors import NotFound


class _Run(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def started_at(self) -> datetime: ...
    @property
    def status(self) -> str: ...
    @property
    def task(self) -> asyncio.Task[None] | None: ...


R = TypeVar("R", bound=_Run)


class RunBook(Generic[R]):
    def __init__(self, noun: str, keep_finished: int) -> None:
        self._noun = noun  # "extraction run": what the NotFound message calls one
        self._keep = keep_finished
        self._runs: dict[str, R] = {}

    def add(self, run: R) -> None:
        self._runs[run.id] = run
        # Only finished runs are dropped, oldest first: a long-lived app keeps a bounded book.
        finished = [r for r in self.runs() if r.status != "running"]
        for old in finished[self._keep:]:
            del self._runs[old.id]

    def get(self, run_id: str) -> R | None:
        return self._runs.get(run_id)

    def runs(self) -> list[R]:
        return sorted(self._runs.values(), key=lambda r: (r.started_at, r.id), reverse=True)

    async def wait(self, run_id: str) -> R:
        run = self._runs.get(run_id)
        if run is None:
            raise NotFound(f"There is no {self._noun} {run_id!r}.")
        if run.task is not None:
            await asyncio.wait({run.task})
        return run

    def abort(self, run_id: str) -> bool:
        """Cancel a running run; False when it is unknown or already finished."""
        run = self._runs.get(run_id)
        if run is None or run.status != "running" or run.task is None:
            return False
        run.task.cancel()
        return True
