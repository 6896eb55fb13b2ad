"""``JsonAskStore``: the Ask history, one conversation per file (``asks/<id>.json``), replaced
atomically at each checkpoint of an answer and when it ends."""

from __future__ import annotations

import contextlib
import os
from datetime import datetime
from pathlib import Path

from studyhall.adapters.errors import translated
from studyhall.adapters.store.folder import RecordFolder
from studyhall.adapters.store.shape_guard import checked, is_safe_id, require_safe_id
from studyhall.core.contracts.asks import AskExchange, AskThread, AskThreadSummary
from studyhall.core.errors import NotFound


def summary_of(thread: AskThread) -> AskThreadSummary:
    first = thread.exchanges[0].question if thread.exchanges else "(no question)"
    return AskThreadSummary(id=thread.id, title=first, questions=len(thread.exchanges),
                            updated_at=thread.updated_at)


def with_exchange(thread: AskThread, exchange: AskExchange, now: datetime) -> AskThread:
    """``thread`` with ``exchange`` in place of the one with its id (appended when new)."""
    exchanges = list(thread.exchanges)
    at = next((i for i, x in enumerate(exchanges)
               if exchange.id is not None and x.id == exchange.id), None)
    if at is None:
        exchanges.append(exchange)
    else:
        exchanges[at] = exchange
    return thread.model_copy(update={"updated_at": now, "exchanges": exchanges})


class JsonAskStore:
    def __init__(self, root: Path) -> None:
        self._folder: RecordFolder[AskThread, AskThreadSummary] = RecordFolder(
            Path(root), AskThread, "ask conversation", summary_of)

    def __repr__(self) -> str:
        return f"JsonAskStore({str(self._folder.root)!r})"

    def save(self, thread: AskThread) -> None:
        thread, data = checked(AskThread, thread, f"ask conversation {getattr(thread, 'id', '?')}")
        require_safe_id("ask conversation", thread.id)
        with self._folder.locks.hold(thread.id):
            self._folder.write(thread.id, data, thread)

    def put_exchange(self, thread_id: str, exchange: AskExchange, now: datetime) -> None:
        require_safe_id("ask conversation", thread_id)
        with self._folder.locks.hold(thread_id):  # read-modify-write: one writer per thread
            thread = self._folder.load(thread_id) or AskThread(id=thread_id, created_at=now,
                                                               updated_at=now)
            thread, data = checked(AskThread, with_exchange(thread, exchange, now),
                                   f"ask conversation {thread_id}")
            self._folder.write(thread_id, data, thread)

    def get(self, thread_id: str) -> AskThread | None:
        if not is_safe_id(thread_id):
            return None
        return self._folder.load(thread_id)

    def list(self) -> list[AskThreadSummary]:
        return sorted(self._folder.scan(), key=lambda s: (s.updated_at, s.id), reverse=True)

    def remove(self, thread_id: str) -> None:
        if not is_safe_id(thread_id) or not self._folder.exists(thread_id):
            raise NotFound(f"There is no Ask conversation {thread_id!r}.")
        with (self._folder.locks.hold(thread_id), translated(f"remove ask conversation {thread_id}"),
              contextlib.suppress(FileNotFoundError)):
            os.remove(self._folder.path(thread_id))
