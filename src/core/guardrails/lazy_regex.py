"""A regular expression compiled on its first use: the guardrails' big patterns are imported
at start-up (the intent router runs before every turn) but cost nothing until a message comes."""

from __future__ import annotations

import re
from collections.abc import Iterator


class LazyPattern:
    """``re.compile(pattern, flags)`` on first ``search``/``finditer``; the same results."""

    __slots__ = ("_compiled", "_flags", "_pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._pattern = pattern
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self._pattern, self._flags)
        return self._compiled

    def search(self, text: str) -> re.Match[str] | None:
        return self.compiled.search(text)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(text)
