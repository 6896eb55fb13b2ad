"""Time and ids: the only way the core learns the clock or makes an id."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware (UTC)."""
        ...


class Ids(Protocol):
    def new(self, prefix: str) -> str:
        """A fresh unique id such as ``chat_3f9a...``."""
        ...
