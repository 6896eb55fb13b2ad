"""``MemoryLedger``: the JsonlLedger contract (shape guard, replay ignored) over a list."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Generic, TypeVar

from pydantic import BaseModel
from studyhall.adapters.store.ledger import RecordCheck
from studyhall.adapters.store.shape_guard import checked
from studyhall.core.contracts.ledger import LedgerRead
from studyhall.core.errors import StoreError

R = TypeVar("R", bound=BaseModel)


class MemoryLedger(Generic[R]):
    def __init__(self, model: type[R], label: str, check: RecordCheck | None = None) -> None:
        self._model = model
        self._label = label
        self._check = check
        self._lines: list[R] = []  # every append, replays included, like the file
        self._lock = threading.Lock()

    def append(self, records: Sequence[R]) -> None:
        n = len(records)
        fresh: list[R] = []
        for i, record in enumerate(records):
            what = f"record {i + 1} of {n} for {self._label}"
            copy, _ = checked(self._model, record, what)
            problem = self._check(copy) if self._check else None
            if problem:
                raise StoreError(f"Refused to save {what}: {problem}. Nothing was written.")
            fresh.append(copy)
        with self._lock:
            self._lines.extend(fresh)

    def read(self) -> LedgerRead[R]:
        with self._lock:
            lines = list(self._lines)
        seen: set[str] = set()
        records: list[R] = []
        for r in lines:
            rid = str(getattr(r, "id"))  # noqa: B009 - every ledger record has an id
            if rid not in seen:
                seen.add(rid)
                records.append(r)
        return LedgerRead(records=tuple(records), replayed=len(lines) - len(records))
