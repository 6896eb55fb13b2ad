"""``InMemorySourceStore``: the SourceStore contract held in a dict."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from studyhall.adapters.store.shape_guard import checked
from studyhall.adapters.store.shared_semantics import by_location
from studyhall.core.contracts.sources import Source
from studyhall.core.errors import NotFound


class InMemorySourceStore:
    def __init__(self) -> None:
        self._sources: dict[str, Source] = {}
        self._lock = threading.Lock()

    def save(self, source: Source) -> None:
        self.save_many([source])

    def save_many(self, sources: Sequence[Source]) -> None:
        fresh = [checked(Source, s, f"source {getattr(s, 'id', '?')}")[0] for s in sources]
        with self._lock:
            for s in fresh:
                self._sources[s.id] = s

    def get(self, source_id: str) -> Source | None:
        with self._lock:
            return self._sources.get(source_id)

    def list(self) -> list[Source]:
        with self._lock:
            return by_location(list(self._sources.values()))

    def remove(self, source_id: str) -> None:
        with self._lock:
            if self._sources.pop(source_id, None) is None:
                raise NotFound(f"There is no imported source {source_id!r}.")
