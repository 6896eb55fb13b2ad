"""Deterministic time and ids for tests: ``FixedClock`` (settable), ``SequentialIds``."""

from __future__ import annotations

import threading
from collections import defaultdict
from datetime import UTC, datetime, timedelta

DEFAULT_START = datetime(2025, 1, 1, 9, 0, tzinfo=UTC)


class FixedClock:
    """Time stands still until told: ``set(at)``, ``advance(seconds=...)``; or ticks per call."""

    def __init__(self, start: datetime = DEFAULT_START, *, tick: timedelta | None = None) -> None:
        self._now = self._aware(start)
        self._tick = tick

    @staticmethod
    def _aware(at: datetime) -> datetime:
        return at if at.tzinfo is not None else at.replace(tzinfo=UTC)

    def now(self) -> datetime:
        current = self._now
        if self._tick is not None:
            self._now = current + self._tick
        return current

    def set(self, at: datetime) -> None:
        self._now = self._aware(at)

    def advance(self, delta: timedelta | None = None, **parts: float) -> datetime:
        """Move forward by ``delta`` or ``timedelta(**parts)``; returns the new now."""
        self._now += delta if delta is not None else timedelta(**parts)
        return self._now


class SequentialIds:
    """``chat_0001``, ``chat_0002``, ``msg_0001``...: one counter per prefix, zero-padded."""

    def __init__(self, width: int = 4) -> None:
        self._width = width
        self._counts: defaultdict[str, int] = defaultdict(int)
        self._lock = threading.Lock()

    def new(self, prefix: str) -> str:
        with self._lock:
            self._counts[prefix] += 1
            n = self._counts[prefix]
        sep = "" if not prefix or prefix.endswith(("_", "-")) else "_"
        return f"{prefix}{sep}{n:0{self._width}d}"
