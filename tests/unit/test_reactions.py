"""The reactions bus: when each handler runs for each way of publishing, and that a failing
handler is contained (one ``[chat <id>]`` / ``[job <id>]`` line) without reaching the producer
or the handlers after it."""

from __future__ import annotations

import asyncio
import logging

import pytest
from studyhall.core.errors import StoreError
from studyhall.server.runtime.reactions import JobChanged, Reactions, TurnEnded, WakeWanted
from studyhall.server.runtime.supervisor import Supervisor

ENDED = TurnEnded("chat_1", "stop", None, ())


async def test_publish_starts_each_reaction_in_its_own_task_and_returns_at_once(
        caplog: pytest.LogCaptureFixture) -> None:
    supervisor = Supervisor()
    bus = Reactions(supervisor)
    seen: list[str] = []

    def broken(event: TurnEnded) -> None:
        raise ValueError("extraction exploded")

    async def later(event: TurnEnded) -> None:
        seen.append(event.chat_id)

    bus.declare({TurnEnded: (broken, later)})
    with caplog.at_level(logging.WARNING, "studyhall.turns"):
        bus.publish(ENDED)
        assert seen == [] and sorted(supervisor.names()) == ["broken chat_1", "later chat_1"]
        await supervisor.idle()
    assert seen == ["chat_1"]  # the failure before it did not stop it
    assert "[chat chat_1] broken failed: ValueError: extraction exploded" in caplog.text


def test_notify_runs_each_reaction_now_in_table_order(caplog: pytest.LogCaptureFixture) -> None:
    bus = Reactions(Supervisor())
    seen: list[str] = []

    def disk_full(event: JobChanged) -> None:
        raise StoreError("No space left on device")

    bus.declare({JobChanged: (lambda e: seen.append("first"), disk_full,
                              lambda e: seen.append(e.job_id))})
    with caplog.at_level(logging.WARNING, "studyhall.jobs"):
        bus.notify(JobChanged("job_7"))  # no loop needed: nothing is scheduled
    assert seen == ["first", "job_7"]
    assert "[job job_7] disk_full failed: StoreError: No space left on device" in caplog.text


async def test_handle_awaits_each_reaction_in_order_before_returning() -> None:
    bus = Reactions(Supervisor())
    seen: list[str] = []

    async def slow(event: WakeWanted) -> None:
        await asyncio.sleep(0)
        seen.append("slow")

    bus.declare({WakeWanted: (slow, lambda e: seen.append("then"))})
    await bus.handle(WakeWanted("chat_1"))
    assert seen == ["slow", "then"]


async def test_cancelling_the_producer_is_not_a_contained_failure() -> None:
    bus = Reactions(Supervisor())
    started = asyncio.Event()

    async def waits(event: WakeWanted) -> None:
        started.set()
        await asyncio.Event().wait()

    bus.declare({WakeWanted: (waits,)})
    task = asyncio.create_task(bus.handle(WakeWanted("chat_1")))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_an_event_nobody_reacts_to_is_dropped_quietly() -> None:
    supervisor = Supervisor()
    bus = Reactions(supervisor)
    bus.publish(ENDED)
    bus.notify(JobChanged("job_1"))
    await bus.handle(WakeWanted("chat_1"))
    assert len(supervisor) == 0
