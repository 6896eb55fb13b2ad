"""What a merge is checked against: the known graph, the nearest nodes the auditor sees, coverage.

Two ways to hold it. ``SharedGraph`` reads the process-wide snapshot again for every batch: a
session's run shares the graph with other writers (another chat's run, an import), and each
batch must see what they merged. ``TrackedGraph`` is read once and kept in step with its own
plans: a bulk import plans many notes into one group run before any of it is written, and each
note must already see the nodes the notes before it proposed — without re-reading the ledgers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, cast

from studyhall.core.library.extraction.coverage import covered_fingerprints
from studyhall.core.library.extraction.findings import NodeRef
from studyhall.core.library.extraction.merger import KnownGraph, MergePlan
from studyhall.core.library.extraction.nearest import LexicalNeighbours, NeighbourFinder
from studyhall.core.library.graph.snapshot import GraphSnapshot
from studyhall.core.ports.storage import GraphStore


class MergeBase(Protocol):
    def known(self) -> KnownGraph:
        """The nodes and edges a plan made now is checked against."""
        ...

    def neighbours(self) -> NeighbourFinder:
        """Existing nodes by likeness: what the auditor judges identity against."""
        ...

    def covered(self, source_id: str) -> set[str]:
        """Fingerprints of the source's views that checkpointed runs merged."""
        ...

    def planned(self, plan: MergePlan) -> None:
        """A plan that is (or will be, with its group) committed: its nodes and edges exist."""
        ...

    def committed(self, run_id: str) -> None:
        """A run wrote its checkpoint: its coverage counts."""
        ...


def lexical_finder(snapshot: GraphSnapshot) -> NeighbourFinder:
    return LexicalNeighbours([NodeRef(n.id, n.text) for n in snapshot.nodes])


class CachedLexicalFinder:
    """``lexical_finder`` that reuses its index while the graph's nodes are unchanged (an
    incremental fold hands back the same nodes tuple until something new is merged)."""

    def __init__(self) -> None:
        self._nodes: tuple[object, ...] | None = None
        self._finder: NeighbourFinder | None = None

    def __call__(self, snapshot: GraphSnapshot) -> NeighbourFinder:
        if self._finder is None or snapshot.nodes is not self._nodes:
            self._nodes, self._finder = snapshot.nodes, lexical_finder(snapshot)
        return self._finder


class SharedGraph:
    """The graph as every writer left it: the snapshot (an incremental fold) read anew."""

    def __init__(self, store: GraphStore, snapshot: Callable[[], GraphSnapshot]) -> None:
        self._store, self._snapshot = store, snapshot
        self._finder = CachedLexicalFinder()

    def known(self) -> KnownGraph:
        return self._snapshot().known()

    def neighbours(self) -> NeighbourFinder:
        return self._finder(self._snapshot())

    def covered(self, source_id: str) -> set[str]:
        runs = {c.id for c in self._store.checkpoints().records}
        return covered_fingerprints(self._store.coverage(source_id).records, runs)

    def planned(self, plan: MergePlan) -> None:
        """Nothing to track: the next read of the snapshot folds what was written."""

    def committed(self, run_id: str) -> None:
        """Nothing to track: checkpoints are read from the store."""


class TrackedGraph:
    """One read of the graph, then kept in step with every plan made against it."""

    def __init__(self, store: GraphStore, snapshot: GraphSnapshot) -> None:
        self._store = store
        self.node_ids = {n.id for n in snapshot.nodes}
        self.node_texts = {n.id: n.text for n in snapshot.nodes}
        self.edges = {(e.source, e.target, e.kind) for e in snapshot.edges}
        self.runs = {c.id for c in store.checkpoints().records}
        self._finder: NeighbourFinder | None = None  # rebuilt once nodes were added

    def known(self) -> KnownGraph:
        # The live sets, not copies (a copy per note made a big import quadratic): planning is
        # synchronous and only tests membership, so nothing can change them meanwhile.
        return KnownGraph(
            cast(frozenset[str], self.node_ids), cast(frozenset[tuple[str, str, str]], self.edges)
        )

    def neighbours(self) -> NeighbourFinder:
        if self._finder is None:
            self._finder = LexicalNeighbours([NodeRef(i, t) for i, t in self.node_texts.items()])
        return self._finder

    def covered(self, source_id: str) -> set[str]:
        return covered_fingerprints(self._store.coverage(source_id).records, self.runs)

    def planned(self, plan: MergePlan) -> None:
        for record in plan.propositions:
            self.node_ids.add(record.node_id)
            self.node_texts[record.node_id] = record.text
        if plan.propositions:
            self._finder = None
        self.edges.update((e.source, e.target, e.relation) for e in plan.edges)

    def committed(self, run_id: str) -> None:
        self.runs.add(run_id)
