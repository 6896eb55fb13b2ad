"""``GraphFold``: the incremental fold of ledger records into a ``GraphSnapshot``.

Only records of runs that wrote their checkpoint count; the rest wait (a checkpoint may still
come) or are ignored forever (the run died). Ledgers are append-only, so a fold takes only the
records past what it has seen — from whole reads (``update``) or from tails (``feed``) — and
derives again only the nodes that got new records. Its state can be exported as plain data and
restored (``fold_state.py``), so a reader need not refold a large graph at every start.
An identity link that ``absorbs`` a node folds it into another for good: records about the
absorbed node (earlier or later) count for the one it went into, its edges end there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from functools import partial
from operator import attrgetter
from typing import Any

from studyhall.core.contracts.graph import (
    Cluster,
    EdgeAdded,
    IdentityLinked,
    Position,
    PropositionCreated,
    QuizEvent,
    RunCheckpoint,
    UnderstandingObserved,
)
from studyhall.core.library.graph.fold_node import IDENTITIES, PROPOSITIONS, NodeFold, aware
from studyhall.core.library.graph.fold_state import EdgeRow, FoldState, parse_edge_rows
from studyhall.core.library.graph.view import GraphSnapshot, Ledgers, SnapshotEdge, SnapshotNode

RECORD_LEDGERS = ("propositions", "identities", "edges", "quiz_events", "observations")
LEDGERS = ("checkpoints", *RECORD_LEDGERS)  # the order a fresh fold takes them in

_node_order = attrgetter("created_at", "seq")
_new_edge = partial(tuple.__new__, SnapshotEdge)


def _edge_order(row: EdgeRow) -> tuple[datetime, int]:
    return (row[4], row[5])


class GraphFold:
    """Folds ledger records into a snapshot, deriving again only what changed."""

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
        self._counts = dict.fromkeys(LEDGERS, 0)  # records folded per ledger: the next seq
        self._last_ids: dict[str, str | None] = dict.fromkeys(LEDGERS)
        self._runs: set[str] = set()
        self._runs_seen: frozenset[str] = frozenset()
        self._pending: dict[str, list[tuple[str, Any, int]]] = {}  # run -> (ledger, record, seq)
        self._nodes: dict[str, SnapshotNode] = {}  # derived (stated) nodes
        self._open: dict[str, NodeFold] = {}  # changed since the last derive, or not stated yet
        self._changed: set[str] = set()
        self._order: list[SnapshotNode] = []  # the snapshot's node order
        self._pos: dict[str, int] | None = {}  # node id -> index in _order (None: rebuild)
        self._reorder = False  # a node's sort key moved: sort again
        self._edges: dict[tuple[str, str, str], EdgeRow] | None = {}  # None: not indexed yet
        self._placed: list[EdgeRow] = []  # shown edges in order (restored ones keep ISO times)
        self._edges_out: list[SnapshotEdge] = []  # parallel to _placed
        self._edge_last: tuple[datetime, int] | None = None  # sort key of the last placed
        self._waiting: list[EdgeRow] = []  # edges whose nodes are not both there yet
        self._edges_grew = False
        self._reorder_edges = False
        self._dirty = True
        self._cached: tuple[tuple[SnapshotNode, ...], tuple[SnapshotEdge, ...]] | None = None
        self._alias: dict[str, str] = {}  # absorbed node -> the node it was folded into
        self._followed_map: Mapping[str, str] = {}
        self._followed_for = 0  # aliases counted when _followed_map was built (they only grow)
        self._gone = False  # absorbed nodes to take out of the order
        self._rekey = False  # absorbed nodes whose edges must end at their new node

    @property
    def runs(self) -> frozenset[str]:
        return frozenset(self._runs)

    @property
    def counts(self) -> dict[str, int]:
        """Records folded so far, per ledger."""
        return dict(self._counts)

    # --- input -----------------------------------------------------------------------------

    def update(self, ledgers: Ledgers) -> None:
        """Fold whole ledger reads: only the records past those already folded are new. A
        ledger that no longer continues what was folded (rewritten, truncated) starts a fresh
        fold."""
        if any(not self._continues(name, getattr(ledgers, name)) for name in LEDGERS):
            self._reset()
        for name in LEDGERS:
            self.feed(name, getattr(ledgers, name)[self._counts[name]:])

    def feed(self, name: str, records: Sequence[Any]) -> None:
        """Fold ``records`` appended to ledger ``name`` right after those already folded.
        Feed the checkpoints first: a record whose run has no checkpoint yet waits for it."""
        if not records:
            return
        start = self._counts[name]
        self._counts[name] = start + len(records)
        self._last_ids[name] = records[-1].id
        self._dirty = True
        if name == "checkpoints":
            self._checkpoints(records)
            return
        apply, runs, pending = self._apply[name], self._runs, self._pending
        for seq, record in enumerate(records, start):
            if record.run_id in runs:
                apply(record, seq)
            else:
                pending.setdefault(record.run_id, []).append((name, record, seq))

    def _continues(self, name: str, records: Sequence[Any]) -> bool:
        count = self._counts[name]
        return count == 0 or (len(records) >= count
                              and records[count - 1].id == self._last_ids[name])

    def _checkpoints(self, records: Sequence[RunCheckpoint]) -> None:
        for checkpoint in records:
            if checkpoint.id not in self._runs:
                self._runs.add(checkpoint.id)
                for name, record, seq in self._pending.pop(checkpoint.id, ()):
                    self._apply[name](record, seq)

    def _resolve(self, node_id: str) -> str:
        alias, hops = self._alias, 0
        while node_id in alias and hops <= len(alias):  # hops: a hand-made cycle cannot hang
            node_id, hops = alias[node_id], hops + 1
        return node_id

    def _touch(self, node_id: str) -> NodeFold:
        node_id = self._resolve(node_id)
        acc = self._open.get(node_id)
        if acc is None:
            node = self._nodes.get(node_id)
            acc = self._open[node_id] = NodeFold.reopen(node) if node else NodeFold()
        self._changed.add(node_id)
        return acc

    def _proposition(self, record: PropositionCreated, seq: int) -> None:
        acc = self._touch(record.node_id)
        at = aware(record.at)
        if record.node_id not in self._alias:  # an absorbed node never renames its new one
            acc.state(record.text, at, seq, record.id)
        acc.cite(PROPOSITIONS, seq, record.source_id, record.evidence, record.run_id, at)

    def _identity(self, record: IdentityLinked, seq: int) -> None:
        if record.absorbs is not None:
            self._absorb(record.absorbs, record.node_id)
        self._touch(record.node_id).cite(IDENTITIES, seq, record.source_id, record.evidence,
                                         record.run_id, aware(record.at))

    def _absorb(self, old: str, into: str) -> None:
        target = self._resolve(into)
        if target == old or old in self._alias:
            return  # a cycle, or absorbed already (the first absorption in ledger order wins)
        self._alias[old] = target
        acc = self._open.pop(old, None)
        node = self._nodes.pop(old, None)
        if node is not None:
            acc = acc or NodeFold.reopen(node)
            self._gone = True
        self._changed.discard(old)
        if acc is not None:
            self._touch(target).absorb(acc)
        self._rekey = True
        self._dirty = True

    def _rekey_edges(self) -> None:
        """Edges of absorbed nodes end at their new nodes (the earliest record of an edge
        that becomes a duplicate stays; one that becomes a self-loop goes)."""
        self._rekey = False
        rekeyed: dict[tuple[str, str, str], EdgeRow] = {}
        for row in parse_edge_rows(self._edge_index().values()):
            source, target = self._resolve(row[0]), self._resolve(row[1])
            if source == target:
                continue
            row = (source, target, *row[2:])
            key = (source, target, row[2])
            known = rekeyed.get(key)
            if known is None:
                rekeyed[key] = row
                continue
            # Two edges that are one now: the earliest record places it, the later one weighs.
            later = row if row[5] > known[5] else known
            first = row if (row[4], row[3]) < (known[4], known[3]) else known
            rekeyed[key] = (*first[:6], later[6])
        self._edges = rekeyed
        self._reorder_edges = True

    def _quiz(self, record: QuizEvent, seq: int) -> None:
        self._touch(record.node_id).answer((
            record.id, record.verdict, aware(record.at), record.source_id, record.tool_call_id,
            record.question_index, record.run_id, record.difficulty or ""))

    def _observation(self, record: UnderstandingObserved, seq: int) -> None:
        self._touch(record.node_id).observe((
            record.id, record.level, aware(record.at), record.source_id, record.message_ids,
            record.run_id))

    def _edge(self, record: EdgeAdded, seq: int) -> None:
        if record.source == record.target:
            return  # the merger never writes one; a hand-edited ledger might
        source, target = self._resolve(record.source), self._resolve(record.target)
        if source == target:
            return  # joined two nodes that are one now
        edges = self._edge_index()
        key = (source, target, record.relation)
        known = edges.get(key)
        # The latest record that names a weight weighs the edge (records fold in ledger order).
        weight = record.weight or (1 if known is None else known[6])
        row = (source, target, record.relation, record.id, aware(record.at), seq, weight)
        if known is None:
            edges[key] = row
            self._waiting.append(row)
            self._edges_grew = True
        elif (row[4], row[3]) < (parse_edge_rows([known])[0][4], known[3]):
            edges[key] = row  # an earlier record of the same edge
            self._reorder_edges = True
        elif weight != known[6]:
            edges[key] = (*known[:6], weight)  # re-weighed: the first record still places it
            self._reorder_edges = True

    def _edge_index(self) -> dict[tuple[str, str, str], EdgeRow]:
        if self._edges is None:  # restored: index the rows on first need (times stay text)
            self._edges = {(r[0], r[1], r[2]): r for r in (*self._placed, *self._waiting)}
        return self._edges

    # --- derivation ------------------------------------------------------------------------

    def _derive(self) -> tuple[tuple[SnapshotNode, ...], tuple[SnapshotEdge, ...]]:
        if self._cached is not None and not self._dirty:
            return self._cached
        grew = self._derive_nodes()
        if self._rekey:
            self._rekey_edges()
        self._derive_edges(grew)
        self._cached = (tuple(self._order), tuple(self._edges_out))
        self._dirty = False
        return self._cached

    def _derive_nodes(self) -> bool:
        """Build the changed nodes again and keep the order; True when nodes were added."""
        nodes, fresh = self._nodes, []
        for node_id in self._changed:
            acc = self._open[node_id]
            if acc.created is None:
                continue  # not stated yet: stays open, shows nothing
            node = acc.build(node_id)
            del self._open[node_id]  # the node holds all the fold knew; reopened on need
            old = nodes.get(node_id)
            nodes[node_id] = node
            if old is None:
                fresh.append(node)
            elif _node_order(old) != _node_order(node):
                self._reorder = True  # an earlier statement arrived: its place moved
            elif not self._reorder:
                self._order[self._positions()[node_id]] = node
        self._changed.clear()
        if self._gone:  # absorbed nodes leave the order
            self._order = [n for n in self._order if n.id in nodes]
            self._pos = None
            self._gone = False
        order = self._order
        if fresh and not self._reorder:
            fresh.sort(key=_node_order)
            if order and _node_order(fresh[0]) < _node_order(order[-1]):
                self._reorder = True  # new nodes are nearly always the newest; else sort
            else:
                if self._pos is not None:
                    self._pos.update((n.id, i) for i, n in enumerate(fresh, len(order)))
                order.extend(fresh)
        if self._reorder:
            self._order = sorted(nodes.values(), key=_node_order)
            self._pos = None
            self._reorder = False
        return bool(fresh)

    def _positions(self) -> dict[str, int]:
        if self._pos is None:
            self._pos = {n.id: i for i, n in enumerate(self._order)}
        return self._pos

    def _derive_edges(self, nodes_grew: bool) -> None:
        """Show the edges whose two nodes both exist, in the order of their records."""
        nodes = self._nodes
        if self._reorder_edges:
            rows = parse_edge_rows(self._edge_index().values())
            self._placed, self._edges_out, self._edge_last = [], [], None
            self._reorder_edges = False
        elif self._waiting and (nodes_grew or self._edges_grew):
            rows = self._waiting
        else:
            return
        self._edges_grew = False
        ready: list[EdgeRow] = []
        self._waiting = []
        for row in rows:
            (ready if row[0] in nodes and row[1] in nodes else self._waiting).append(row)
        if not ready:
            return
        ready.sort(key=_edge_order)
        if self._edge_last is not None and _edge_order(ready[0]) < self._edge_last:
            self._placed = sorted([*parse_edge_rows(self._placed), *ready], key=_edge_order)
            self._edges_out = [_new_edge((r[3], r[0], r[1], r[2], r[6])) for r in self._placed]
        else:
            self._placed += ready
            self._edges_out += [_new_edge((r[3], r[0], r[1], r[2], r[6])) for r in ready]
        self._edge_last = _edge_order(self._placed[-1])  # parsed: one of ``ready`` or sorted

    def snapshot(self, clusters: Sequence[Cluster] = (),
                 positions: Mapping[str, Position] | None = None) -> GraphSnapshot:
        nodes, edges = self._derive()
        present = self._nodes
        kept = tuple(
            Cluster(id=c.id, node_ids=ids, label=c.label, region=c.region)
            for c in clusters
            if (ids := tuple(i for i in c.node_ids if i in present)))
        where = {k: v for k, v in (positions or {}).items() if k in present}
        if len(self._runs_seen) != len(self._runs):  # runs only grow (or reset to empty)
            self._runs_seen = frozenset(self._runs)
        return GraphSnapshot(nodes, edges, kept, where, self._runs_seen, self._followed())

    def _followed(self) -> Mapping[str, str]:
        """Every absorbed node resolved to the node it is now, built again only when an
        absorption was folded since."""
        if self._followed_for != len(self._alias):
            self._followed_map = {old: self._resolve(old) for old in self._alias}
            self._followed_for = len(self._alias)
        return self._followed_map

    # --- persistence -----------------------------------------------------------------------

    def export(self) -> FoldState:
        """The fold's state as immutable values (safe to serialise on another thread)."""
        nodes, _ = self._derive()
        return FoldState(
            counts=tuple((name, self._counts[name], self._last_ids[name]) for name in LEDGERS),
            runs=frozenset(self._runs),
            pending=tuple((run, name, seq, record) for run, items in self._pending.items()
                          for name, record, seq in items),
            nodes=nodes,
            orphans=tuple((node_id, *acc.trail()) for node_id, acc in self._open.items()),
            edges=(*self._placed, *self._waiting),
            placed=len(self._placed),
            aliases=tuple(sorted(self._alias.items())),
        )

    @classmethod
    def restore(cls, state: FoldState) -> GraphFold:
        """A fold that continues from an exported state."""
        fold = cls()
        for name, count, last_id in state.counts:
            fold._counts[name] = count
            fold._last_ids[name] = last_id
        fold._runs = set(state.runs)
        for run, name, seq, record in state.pending:
            fold._pending.setdefault(run, []).append((name, record, seq))
        fold._order = list(state.nodes)
        fold._nodes = {n.id: n for n in fold._order}
        fold._pos = None
        for node_id, sources, trail in state.orphans:
            fold._open[node_id] = NodeFold()
            fold._open[node_id].load(sources, trail)
        placed = state.edges[:state.placed]
        fold._edges, fold._placed = None, list(placed)
        fold._edges_out = [_new_edge((r[3], r[0], r[1], r[2], r[6])) for r in placed]
        fold._edge_last = _edge_order(parse_edge_rows(placed[-1:])[0]) if placed else None
        fold._waiting = parse_edge_rows(state.edges[state.placed:])
        fold._alias = dict(state.aliases)
        fold._dirty = True
        return fold
