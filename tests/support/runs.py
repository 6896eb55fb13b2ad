"""Waiting for a background run (an import run, an extraction run) to end, in a test: the run's
own task, awaited without taking its outcome (a failed or stopped run is a run that ended)."""

from __future__ import annotations

import asyncio
from typing import Any, TypeVar

R = TypeVar("R")


async def finished(run: R | None) -> R:
    assert run is not None, "no such run"
    task: asyncio.Task[Any] | None = getattr(run, "task", None)
    if task is not None:
        await asyncio.wait({task})
    return run
