"""The real clock and id source: ``SystemClock`` (UTC now) and ``RandomIds`` (uuid4, prefixed)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class RandomIds:
    """``chat_3f9a...``: the prefix, an underscore, 32 hex digits (safe as a file name)."""

    def new(self, prefix: str) -> str:
        sep = "" if not prefix or prefix.endswith(("_", "-")) else "_"
        return f"{prefix}{sep}{uuid.uuid4().hex}"
