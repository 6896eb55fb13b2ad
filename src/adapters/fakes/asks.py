"""``InMemoryAskStore``: the AskStore contract held in a dict."""

from __future__ import annotations

import threading
from datetime import datetime

from studyhall.adapters.store.asks import summary_of, with_exchange
from studyhall.adapters.store.shape_guard import checked, is_safe_id, require_safe_id
from studyhall.core.contracts.asks import AskExchange, AskThread, AskThreadSummary
from studyhall.core.errors import NotFound


class InMemoryAskStore:
    def __init__(self) -> None:
        self._threads: dict[str, AskThread] = {}
        self._lock = threading.Lock()

    def save(self, thread: AskThread) -> None:
        thread, _ = checked(AskThread, thread, f"ask conversation {getattr(thread, 'id', '?')}")
        require_safe_id("ask conversation", thread.id)
        with self._lock:
            self._threads[thread.id] = thread

    def put_exchange(self, thread_id: str, exchange: AskExchange, now: datetime) -> None:
        require_safe_id("ask conversation", thread_id)
        with self._lock:
            thread = self._threads.get(thread_id) or AskThread(id=thread_id, created_at=now,
                                                               updated_at=now)
            thread, _ = checked(AskThread, with_exchange(thread, exchange, now),
                                f"ask conversation {thread_id}")
            self._threads[thread_id] = thread

    def get(self, thread_id: str) -> AskThread | None:
        if not is_safe_id(thread_id):
            return None
        with self._lock:
            return self._threads.get(thread_id)

    def list(self) -> list[AskThreadSummary]:
        with self._lock:
            threads = list(self._threads.values())
        return sorted(map(summary_of, threads), key=lambda s: (s.updated_at, s.id), reverse=True)

    def remove(self, thread_id: str) -> None:
        with self._lock:
            if self._threads.pop(thread_id, None) is None:
                raise NotFound(f"There is no Ask conversation {thread_id!r}.")
