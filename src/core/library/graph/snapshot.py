"""The read side: nodes, edges and understanding states derived from the ledgers at every read.

Nothing here writes. ``graph_snapshot(store)`` is a full derivation; long-lived readers keep a
``GraphFold`` (``fold.py``) and fold only new ledger lines, and may persist its state
(``fold_state.py``) so a restart need not fold everything again. The shapes live in
``graph_view.py`` and are re-exported here, the library's one entry point for reading the graph.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from studyhall.core.contracts.graph import Cluster, Position
from studyhall.core.library.graph.fold import LEDGERS, GraphFold
from studyhall.core.library.graph.fold_state import FoldState, FoldStateError, from_plain, to_plain
from studyhall.core.library.graph.view import (
    EvidenceEntry,
    GraphSnapshot,
    Ledgers,
    ObservationEntry,
    QuizEntry,
    SnapshotEdge,
    SnapshotNode,
)
from studyhall.core.ports.storage import GraphStore

__all__ = [
    "LEDGERS",
    "EvidenceEntry",
    "FoldState",
    "FoldStateError",
    "GraphFold",
    "GraphSnapshot",
    "Ledgers",
    "ObservationEntry",
    "QuizEntry",
    "SnapshotEdge",
    "SnapshotNode",
    "fold_snapshot",
    "from_plain",
    "graph_snapshot",
    "read_ledgers",
    "to_plain",
]


def read_ledgers(store: GraphStore) -> Ledgers:
    return Ledgers(
        propositions=store.propositions().records,
        identities=store.identity_links().records,
        edges=store.edges().records,
        quiz_events=store.quiz_events().records,
        observations=store.observations().records,
        checkpoints=store.checkpoints().records,
    )


def fold_snapshot(ledgers: Ledgers, clusters: Sequence[Cluster] = (),
                  positions: Mapping[str, Position] | None = None) -> GraphSnapshot:
    fold = GraphFold()
    fold.update(ledgers)
    return fold.snapshot(clusters, positions)


def graph_snapshot(store: GraphStore) -> GraphSnapshot:
    """A fresh, full derivation from the store (the CLI and one-shot readers use this)."""
    return fold_snapshot(read_ledgers(store), store.clusters(), store.positions())
