"""The process-wide graph read: one incremental fold over the ledgers, re-folding only new lines.

Every read goes through the ``GraphStore`` port and the core's ``GraphFold``; nothing here
writes. Used by ``GET /api/graph``, the extraction scheduler (known nodes, coverage) and the CLI.
"""

from __future__ import annotations

import threading

from studyhall.core.library.snapshot import GraphFold, GraphSnapshot, read_ledgers
from studyhall.core.ports import GraphStore


class GraphReader:
    def __init__(self, store: GraphStore) -> None:
        self._store = store
        self._fold = GraphFold()
        # Reads may come from the event loop and from worker threads (sync routes, the CLI).
        self._lock = threading.Lock()

    def snapshot(self) -> GraphSnapshot:
        with self._lock:
            self._fold.update(read_ledgers(self._store))
            return self._fold.snapshot(self._store.clusters(), self._store.positions())

    def runs(self) -> frozenset[str]:
        """Ids of the merges that wrote their checkpoint (the only ones that count)."""
        return frozenset(c.id for c in self._store.checkpoints().records)
