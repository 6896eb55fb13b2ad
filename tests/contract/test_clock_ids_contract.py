"""The Clock and Ids contracts, held against the test doubles and the real implementations."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from studyhall.adapters.fakes import FixedClock, SequentialIds
from studyhall.adapters.store.shape_guard import is_safe_id
from studyhall.adapters.system import RandomIds, SystemClock
from studyhall.core.ports.system import Clock, Ids


@pytest.mark.parametrize("clock", [FixedClock(), SystemClock()], ids=["fixed", "system"])
def test_clock_is_timezone_aware_utc(clock: Clock) -> None:
    now = clock.now()
    assert now.tzinfo is not None and now.utcoffset() == timedelta(0)


@pytest.mark.parametrize("ids", [SequentialIds(), RandomIds()], ids=["sequential", "random"])
def test_ids_are_unique_prefixed_and_safe_file_names(ids: Ids) -> None:
    made = [ids.new("chat") for _ in range(200)] + [ids.new("job") for _ in range(200)]
    assert len(set(made)) == 400
    assert all(i.startswith(("chat_", "job_")) and is_safe_id(i) for i in made)


def test_fixed_clock_is_settable_and_advanceable() -> None:
    clock = FixedClock(datetime(2025, 1, 1, tzinfo=UTC))
    assert clock.now() == clock.now() == datetime(2025, 1, 1, tzinfo=UTC)
    assert clock.advance(minutes=5) == datetime(2025, 1, 1, 0, 5, tzinfo=UTC)
    clock.set(datetime(2030, 6, 1))  # a naive time is taken as UTC
    assert clock.now() == datetime(2030, 6, 1, tzinfo=UTC)
    ticking = FixedClock(datetime(2025, 1, 1, tzinfo=UTC), tick=timedelta(seconds=1))
    assert ticking.now() < ticking.now()


def test_sequential_ids_count_per_prefix() -> None:
    ids = SequentialIds()
    assert [ids.new("chat"), ids.new("chat"), ids.new("msg_")] == [
        "chat_0001",
        "chat_0002",
        "msg_0001",
    ]
