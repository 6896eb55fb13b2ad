"""The background-task supervisor: a failure is logged with the task's name, shutdown cancels
and awaits every task within its bound, and work started while it closes still records its
stop (it is cancelled at its first await, never before its first step)."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest
from studyhall.server.runtime.supervisor import Supervisor


async def test_a_failing_task_is_logged_with_its_name(caplog: pytest.LogCaptureFixture) -> None:
    supervisor = Supervisor()

    async def explode() -> None:
        raise ValueError("the ledger is on fire")

    with caplog.at_level(logging.ERROR, "studyhall.tasks"):
        task = supervisor.spawn("extraction run_7", explode())
        await supervisor.idle()
    assert task.done() and len(supervisor) == 0
    assert "[task extraction run_7] failed: ValueError: the ledger is on fire" in caplog.text


async def test_aclose_cancels_and_awaits_every_task() -> None:
    supervisor = Supervisor()
    stopped: list[str] = []

    async def work(name: str) -> None:
        try:
            await asyncio.Event().wait()
        finally:
            stopped.append(name)

    supervisor.spawn("job a", work("a"))
    supervisor.spawn("job b", work("b"))
    await asyncio.sleep(0)
    assert supervisor.names() == ["job a", "job b"]
    assert await supervisor.aclose() == []
    assert sorted(stopped) == ["a", "b"] and len(supervisor) == 0 and supervisor.closing


async def test_a_task_that_ignores_cancellation_does_not_hold_shutdown(
    caplog: pytest.LogCaptureFixture,
) -> None:
    supervisor = Supervisor()
    release = asyncio.Event()

    async def stubborn() -> None:
        while not release.is_set():
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                continue  # swallows every cancellation

    supervisor.spawn("stubborn one", stubborn())
    await asyncio.sleep(0)
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, "studyhall.tasks"):
        stuck = await supervisor.aclose(timeout=0.2)
    assert stuck == ["stubborn one"]
    assert time.monotonic() - started < 1.0
    assert "did not wait for 1 task(s) still running: stubborn one" in caplog.text
    release.set()
    for task in asyncio.all_tasks():  # let it end, so the test leaves nothing behind
        if task.get_name() == "stubborn one":
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


async def test_work_started_while_closing_runs_its_own_clean_up() -> None:
    supervisor = Supervisor()
    recorded: list[str] = []

    async def job() -> None:
        recorded.append("started")
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            recorded.append("marked queued")  # what a job does when shutdown stops it
            raise

    supervisor.cancel_all()
    task = supervisor.spawn("job late", job())
    await asyncio.gather(task, return_exceptions=True)
    assert task.cancelled() and recorded == ["started", "marked queued"]


async def test_work_started_just_before_shutdown_runs_its_own_clean_up() -> None:
    supervisor = Supervisor()
    recorded: list[str] = []

    async def job() -> None:
        try:
            await asyncio.Event().wait()
        finally:
            recorded.append("stop recorded")

    supervisor.spawn("job early", job())  # not started yet when shutdown begins
    await supervisor.aclose()
    assert recorded == ["stop recorded"]
