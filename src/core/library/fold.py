"""``GraphFold``: the incremental fold of ledger reads into a ``GraphSnapshot``.

Only records of runs that wrote their checkpoint count; the rest wait (a checkpoint may still
come) or are ignored forever (the run died). The ledgers are append-only, so each read folds
only the lines past what it has seen, and only nodes that got new records are derived again.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from operator import itemgetter
from typing import Any, Generic, TypeVar

from ..contracts.graph import (
    Cluster,
    EdgeAdded,
    Evidence,
    IdentityLinked,
    Position,
    PropositionCreated,
    QuizEvent,
    UnderstandingObserved,
)
from .graph_view import EvidenceEntry, GraphSnapshot, Ledgers, SnapshotEdge, SnapshotNode
from .mastery import Signal, score

T = TypeVar("T")


@contextmanager
def _gc_paused(work: int) -> Iterator[None]:
    """Folding 100k+ records allocates millions of small, long-lived objects; the cyclic
    collector would rescan them all several times over (seconds at 100k nodes). None of them
    form cycles (refcounting frees them), so pause it meanwhile — and after a big fold, move
    what exists to the permanent generation so the debt is not paid on the next read."""
    pause = work > 1_000 and gc.isenabled()
    if pause:
        gc.disable()
    try:
        yield
    finally:
        if pause:
            if work > 50_000:
                gc.freeze()
            gc.enable()


class _Node:
    """Mutable accumulator for one node while folding."""

    __slots__ = (
        "cache",
        "created",
        "evidence",
        "keys",
        "observations",
        "quiz",
        "seq",
        "sources",
    )

    def __init__(self) -> None:
        self.created: PropositionCreated | None = None
        self.seq = 0  # line of the creating record in its ledger: a stable order for equal times
        self.evidence: list[EvidenceEntry] = []
        self.keys: set[tuple[str, str, str]] = set()
        self.quiz: dict[tuple[str, int], QuizEvent] = {}
        self.observations: list[UnderstandingObserved] = []
        self.sources: dict[str, None] = {}
        self.cache: SnapshotNode | None = None

    def add_evidence(self, items: Sequence[Evidence], run_id: str, at: datetime) -> None:
        for e in items:
            key = (e.source_id, e.message_id, e.quote)
            if key not in self.keys:
                self.keys.add(key)
                self.evidence.append(EvidenceEntry(e.source_id, e.message_id, e.quote, run_id,
                                                   at))
                self.sources.setdefault(e.source_id)

    def build(self, node_id: str, created: PropositionCreated) -> SnapshotNode:
        quiz = list(self.quiz.values())
        if len(quiz) > 1:
            quiz.sort(key=_by_time)
        observations = self.observations
        if len(observations) > 1:
            observations = sorted(observations, key=_by_time)
        signals = [Signal(q.at, "quiz", q.verdict, f"{q.tool_call_id}/q{q.question_index + 1}")
                   for q in quiz]
        signals += [Signal(o.at, "observation", o.level, o.id) for o in observations]
        evidence = self.evidence
        if len(evidence) > 1:
            evidence = sorted(evidence, key=lambda e: (e.at, e.run_id))
        return SnapshotNode(node_id, created.text, created.at, tuple(self.sources),
                            tuple(evidence), tuple(quiz), tuple(observations), score(signals))


def _by_time(record: Any) -> tuple[datetime, str]:
    return (record.at, record.id)


def _earlier(a: Any, b: Any) -> bool:
    return bool((a.at, a.id) < (b.at, b.id))


class _Ordered(Generic[T]):
    """Items kept sorted by key, with ids to patch them in place. New items are nearly always
    the newest, so they are appended; anything else falls back to one full sort."""

    def __init__(self) -> None:
        self.keys: list[tuple[datetime, int]] = []
        self.ids: list[str] = []
        self.items: list[T] = []
        self.index: dict[str, int] = {}

    def clear(self) -> None:
        self.__init__()  # type: ignore[misc]

    def place(self, new: list[tuple[tuple[datetime, int], str, T]]) -> None:
        if not new:
            return
        # Keys are unique ((time, ledger line)), so the key alone orders the entries.
        new.sort(key=itemgetter(0))
        if self.keys and new[0][0] < self.keys[-1]:
            new = sorted([*zip(self.keys, self.ids, self.items), *new], key=itemgetter(0))
            self.keys, self.ids, self.items, self.index = [], [], [], {}
        for key, item_id, item in new:
            self.index[item_id] = len(self.ids)
            self.keys.append(key)
            self.ids.append(item_id)
            self.items.append(item)

    def replace(self, item_id: str, item: T) -> None:
        self.items[self.index[item_id]] = item


@dataclass
class _Cursor:
    offset: int = 0
    last_id: str | None = None


_RECORD_LEDGERS = ("propositions", "identities", "edges", "quiz_events", "observations")


class GraphFold:
    """Folds ledger reads into a snapshot, re-folding only lines it has not seen."""

    def __init__(self) -> None:
        self._apply: dict[str, Callable[[Any, int], None]] = {
            "propositions": self._proposition,
            "identities": self._identity,
            "edges": self._edge,
            "quiz_events": self._quiz,
            "observations": self._observation,
        }
        self._reset()

    def _reset(self) -> None:
        self._cursors = {name: _Cursor() for name in ("checkpoints", *_RECORD_LEDGERS)}
        self._runs: set[str] = set()
        self._pending: dict[str, list[tuple[str, Any, int]]] = {}
        self._nodes: dict[str, _Node] = {}
        self._edges: dict[tuple[str, str, str], tuple[EdgeAdded, int]] = {}
        self._dirty = True
        self._cached: tuple[tuple[SnapshotNode, ...], tuple[SnapshotEdge, ...]] | None = None
        # Derived output, kept in order and patched per read instead of rebuilt.
        self._order_nodes: _Ordered[SnapshotNode] = _Ordered()
        self._order_edges: _Ordered[SnapshotEdge] = _Ordered()
        self._changed: set[str] = set()  # nodes with new records since the last derive
        self._unplaced: list[str] = []  # nodes created since the last derive
        self._edge_waiting: list[tuple[str, str, str]] = []  # edges not yet shown
        self._reorder = False  # a sort key moved: rebuild the order from scratch

    @property
    def runs(self) -> frozenset[str]:
        return frozenset(self._runs)

    def update(self, ledgers: Ledgers) -> None:
        names = ("checkpoints", *_RECORD_LEDGERS)
        if any(not self._continues(n, getattr(ledgers, n)) for n in names):
            self._reset()  # a ledger was rewritten or truncated: fold from scratch
        fresh = {name: self._fresh(name, getattr(ledgers, name)) for name in names}
        with _gc_paused(sum(len(records) for _, records in fresh.values())):
            for checkpoint in fresh["checkpoints"][1]:
                if checkpoint.id not in self._runs:
                    self._runs.add(checkpoint.id)
                    for name, record, seq in self._pending.pop(checkpoint.id, ()):
                        self._apply[name](record, seq)
                        self._dirty = True
            runs, pending = self._runs, self._pending
            for name in _RECORD_LEDGERS:
                start, records = fresh[name]
                apply = self._apply[name]
                for seq, record in enumerate(records, start):
                    if record.run_id in runs:
                        apply(record, seq)
                    else:
                        pending.setdefault(record.run_id, []).append((name, record, seq))
                if records:
                    self._dirty = True

    def _continues(self, name: str, records: Sequence[Any]) -> bool:
        cursor = self._cursors[name]
        if cursor.offset == 0:
            return True
        return len(records) >= cursor.offset and records[cursor.offset - 1].id == cursor.last_id

    def _fresh(self, name: str, records: Sequence[Any]) -> tuple[int, Sequence[Any]]:
        cursor = self._cursors[name]
        start = cursor.offset
        new = records[start:]
        if new:
            cursor.offset = len(records)
            cursor.last_id = records[-1].id
        return start, new

    def _node(self, node_id: str) -> _Node:
        node = self._nodes.get(node_id)
        if node is None:
            node = self._nodes[node_id] = _Node()
        node.cache = None
        self._changed.add(node_id)
        return node

    def _proposition(self, record: PropositionCreated, seq: int) -> None:
        node = self._node(record.node_id)
        if node.created is None:
            node.created, node.seq = record, seq
            self._unplaced.append(record.node_id)
        elif _earlier(record, node.created):
            node.created, node.seq = record, seq
            self._reorder = True  # an earlier statement of a placed node: its key moved
        node.sources.setdefault(record.source_id)
        node.add_evidence(record.evidence, record.run_id, record.at)

    def _identity(self, record: IdentityLinked, seq: int) -> None:
        node = self._node(record.node_id)
        node.sources.setdefault(record.source_id)
        node.add_evidence(record.evidence, record.run_id, record.at)

    def _edge(self, record: EdgeAdded, seq: int) -> None:
        if record.source == record.target:
            return  # the merger never writes one; a hand-edited ledger might
        key = (record.source, record.target, record.relation)
        known = self._edges.get(key)
        if known is None:
            self._edges[key] = (record, seq)
            self._edge_waiting.append(key)
        elif _earlier(record, known[0]):
            self._edges[key] = (record, seq)
            self._reorder = True

    def _quiz(self, record: QuizEvent, seq: int) -> None:
        node = self._node(record.node_id)
        key = (record.tool_call_id, record.question_index)
        if key not in node.quiz or _earlier(record, node.quiz[key]):
            node.quiz[key] = record

    def _observation(self, record: UnderstandingObserved, seq: int) -> None:
        node = self._node(record.node_id)
        if all(o.id != record.id for o in node.observations):  # a replayed append
            node.observations.append(record)

    def _derive(self) -> tuple[tuple[SnapshotNode, ...], tuple[SnapshotEdge, ...]]:
        if self._cached is not None and not self._dirty:
            return self._cached
        with _gc_paused(len(self._changed) + len(self._edge_waiting)):
            if self._reorder:
                self._order_nodes.clear()
                self._order_edges.clear()
                self._unplaced = [i for i, acc in self._nodes.items() if acc.created]
                self._edge_waiting = list(self._edges)
                self._reorder = False
            nodes = self._nodes
            self._order_nodes.place([
                ((acc.created.at, acc.seq), node_id, self._build(node_id))
                for node_id in self._unplaced
                if (acc := nodes[node_id]).created is not None])
            self._unplaced = []
            for node_id in self._changed:
                if node_id in self._order_nodes.index:
                    self._order_nodes.replace(node_id, self._build(node_id))
            self._changed.clear()
            # An edge shows once both its nodes exist; until then it waits.
            ready: list[tuple[str, str, str]] = []
            waiting: list[tuple[str, str, str]] = []
            for key in self._edge_waiting:
                source, target, _ = key
                placed = self._order_nodes.index
                (ready if source in placed and target in placed else waiting).append(key)
            self._edge_waiting = waiting
            self._order_edges.place([
                ((record.at, seq), record.id,
                 SnapshotEdge(record.id, record.source, record.target, record.relation))
                for record, seq in (self._edges[key] for key in ready)])
        self._cached = (tuple(self._order_nodes.items), tuple(self._order_edges.items))
        self._dirty = False
        return self._cached

    def _build(self, node_id: str) -> SnapshotNode:
        acc = self._nodes[node_id]
        if acc.cache is None:
            assert acc.created is not None
            acc.cache = acc.build(node_id, acc.created)
        return acc.cache

    def snapshot(self, clusters: Sequence[Cluster] = (),
                 positions: Mapping[str, Position] | None = None) -> GraphSnapshot:
        nodes, edges = self._derive()
        present = self._nodes
        kept = tuple(
            Cluster(id=c.id, node_ids=ids, label=c.label)
            for c in clusters
            if (ids := tuple(i for i in c.node_ids if i in present and present[i].created)))
        where = {k: v for k, v in (positions or {}).items()
                 if k in present and present[k].created is not None}
        return GraphSnapshot(nodes, edges, kept, where, frozenset(self._runs))
