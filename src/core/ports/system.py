"""Time, ids and blocking work: the only way the core learns the clock, makes an id, or runs
a blocking call (file I/O, long pure computation) without stalling the event loop."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware (UTC)."""
        ...


class Ids(Protocol):
    def new(self, prefix: str) -> str:
        """A fresh unique id such as ``chat_3f9a...``."""
        ...


class OffLoop(Protocol):
    """Runs a blocking call (a file read or write, or seconds of pure computation such as
    planning the merge of a huge note) off the event loop and awaits its result:
    ``asyncio.to_thread`` in the app; a plain call where nothing else shares the loop."""

    def __call__(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Awaitable[T]: ...


async def in_place(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """The ``OffLoop`` of a caller with no loop to protect (a test, a one-shot command)."""
    return fn(*args, **kwargs)
