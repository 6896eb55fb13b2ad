"""The process-wide graph read: one incremental fold over the ledgers, re-folding only new lines.

Every read goes through the ``GraphStore`` port and the core's ``GraphFold``; nothing here
writes the graph. A store that offers ``GraphTails`` (the file store) is read by tails — only
what was appended since the last read, the records dropped once folded — and the fold starts
from the store's fold cache when there is a usable one. Once enough new records have been
folded since the cache was saved, it is saved again on a background thread. The cache is
derived: a missing, stale or damaged one only costs a full fold, never a different graph.
Used by ``GET /api/graph``, the extraction scheduler (known nodes, coverage) and the CLI.
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext

from studyhall.core.contracts.graph import Cluster, Position
from studyhall.core.errors import StudyhallError
from studyhall.core.library.graph.snapshot import (
    FoldState,
    FoldStateError,
    GraphFold,
    GraphSnapshot,
    from_plain,
    read_ledgers,
    to_plain,
)
from studyhall.core.ports.storage import GraphStore, GraphTails

log = logging.getLogger("studyhall.graph")

# Records folded since the cache was saved before it is saved again: small graphs fold in
# milliseconds and never get one; a large graph is saved after its first fold.
SAVE_AFTER = 20_000


class GraphReader:
    def __init__(self, store: GraphStore, *, save_after: int = SAVE_AFTER) -> None:
        self._store = store
        self._tails = store if isinstance(store, GraphTails) else None
        self._fold = GraphFold()
        self._marks: object | None = None
        self._restored = False  # the fold cache was looked for
        self._unsaved = 0  # records folded since the cache was saved
        self._save_after = save_after
        self._saver: threading.Thread | None = None
        # (fold, records folded), clusters, positions -> the snapshot built from them
        self._last: tuple[tuple[GraphFold, int], list[Cluster], dict[str, Position],
                          GraphSnapshot] | None = None
        # Reads may come from the event loop and from worker threads (sync routes, the CLI).
        self._lock = threading.Lock()

    def snapshot(self) -> GraphSnapshot:
        with self._lock:
            if self._tails is None:
                self._fold.update(read_ledgers(self._store))
                return self._fold.snapshot(self._store.clusters(), self._store.positions())
            # The first read restores the cache or folds every ledger line: a bulk load.
            with _gc_paused() if self._marks is None else nullcontext():
                self._follow(self._tails)
                return self._latest(self._store.clusters(), self._store.positions())

    def _latest(self, clusters: list[Cluster], positions: dict[str, Position]) -> GraphSnapshot:
        """The last snapshot again when nothing was folded since and the side files say the
        same: at 100k nodes building one costs ~0.3 s (positions filtered, clusters rebuilt),
        and Home, search and the dock each read one per request."""
        key = (self._fold, self._folded())
        last = self._last
        if last is not None and last[0] == key and last[1] == clusters and last[2] == positions:
            return last[3]
        snapshot = self._fold.snapshot(clusters, positions)
        self._last = (key, clusters, positions, snapshot)
        return snapshot

    def runs(self) -> frozenset[str]:
        """Ids of the merges that wrote their checkpoint (the only ones that count)."""
        return frozenset(c.id for c in self._store.checkpoints().records)

    def settle(self, timeout: float | None = None) -> None:
        """Wait for a fold-cache save in flight (tests, benchmarks, shutdown)."""
        saver = self._saver
        if saver is not None:
            saver.join(timeout)

    # --- tails and the fold cache ----------------------------------------------------------

    def _follow(self, tails: GraphTails) -> None:
        if not self._restored:
            self._restored = True
            self._restore(tails)
        before = self._folded()
        try:
            marks = tails.read_since(self._marks, self._fold.feed)
            if marks is None:  # a ledger was replaced or truncated: fold everything again
                self._fold, self._marks, before = GraphFold(), None, 0
                marks = tails.read_since(None, self._fold.feed)
        except BaseException:
            # The fold may hold part of a tail that no mark covers: start clean next time.
            self._fold, self._marks = GraphFold(), None
            raise
        self._marks = marks
        self._unsaved += self._folded() - before
        if self._unsaved >= self._save_after:
            self._save(tails)

    def _folded(self) -> int:
        return sum(self._fold.counts.values())

    def _restore(self, tails: GraphTails) -> None:
        started = time.perf_counter()
        loaded = tails.load_fold_cache()
        if loaded is None:
            return
        marks, plain = loaded
        try:
            fold = GraphFold.restore(from_plain(plain))
            _spot_check(fold)
        except (FoldStateError, ValueError) as e:
            log.warning("the graph fold cache is not usable (%s); folding the ledgers", e)
            return
        self._fold, self._marks = fold, marks
        log.info("graph fold restored from its cache in %.0f ms",
                 (time.perf_counter() - started) * 1000)

    def _save(self, tails: GraphTails) -> None:
        if self._saver is not None and self._saver.is_alive():
            return  # one save at a time; the next read after it tries again
        state, marks = self._fold.export(), self._marks
        self._unsaved = 0
        self._saver = threading.Thread(target=_write, args=(tails, marks, state),
                                       name="graph-fold-cache", daemon=True)
        self._saver.start()


_gc_lock = threading.Lock()
_gc_holders = 0
_gc_was_enabled = False


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for one bulk load of the graph.

    Restoring the cache or folding every ledger line creates a million or more small objects
    that hold no cycles (refcounting frees them) but are container objects the collector
    tracks; as the heap grows it rescans them all every time it has grown by a quarter. At 100k
    nodes that was about half of the CPU time of a cold fold (5 of 10 s) and of a restore
    (0.35 of 0.55 s). The pause covers only that load, in the thread doing it; it nests
    (threads may overlap) and the collector is switched back on — if it was on — when the last
    one ends. Nothing is frozen: what becomes garbage later is collected as usual.
    """
    global _gc_holders, _gc_was_enabled
    with _gc_lock:
        if _gc_holders == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_holders += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_holders -= 1
            if _gc_holders == 0 and _gc_was_enabled:
                gc.enable()


# The graph route pauses it the same way while it renders a body: the first one decodes every
# trail and scores every node, another bulk load of small, acyclic objects.
gc_paused = _gc_paused


def _write(tails: GraphTails, marks: object, state: FoldState) -> None:
    started = time.perf_counter()
    try:
        tails.save_fold_cache(marks, to_plain(state))
    except (StudyhallError, OSError, ValueError, TypeError) as e:
        # Derived data: a failed save costs the next start a full fold, nothing else.
        log.warning("could not save the graph fold cache (%s); the next start folds the "
                    "ledgers again", e)
        return
    log.info("graph fold cache saved (%d nodes) in %.0f ms", len(state.nodes),
             (time.perf_counter() - started) * 1000)


def _spot_check(fold: GraphFold) -> None:
    """Decode a few packed trails now, so a cache in a shape this code cannot read is refused
    at start rather than failing a later read of one node."""
    nodes = fold.snapshot().nodes
    for node in {nodes[0], nodes[len(nodes) // 2], nodes[-1]} if nodes else ():
        node.rows(), node.created_at  # decoded for the check
