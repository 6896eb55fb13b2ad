"""``InMemoryGraphStore``: the GraphStore contract over lists and dicts (the file's guards)."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence

from studyhall.adapters.fakes.ledger import MemoryLedger
from studyhall.adapters.store.derived_files import (
    Vectors,
    check_clusters,
    check_positions,
    check_vectors,
)
from studyhall.adapters.store.graph import coverage_check
from studyhall.adapters.store.ledger_methods import GraphLedgerMethods
from studyhall.core.contracts.graph import (
    Cluster,
    CoverageFingerprint,
    EdgeAdded,
    IdentityLinked,
    Position,
    PropositionCreated,
    QuizEvent,
    RunCheckpoint,
    UnderstandingObserved,
)
from studyhall.core.contracts.search import VectorLike


class InMemoryGraphStore(GraphLedgerMethods):
    def __init__(self) -> None:
        self._propositions = MemoryLedger(PropositionCreated, "propositions")
        self._edges = MemoryLedger(EdgeAdded, "edges")
        self._quiz = MemoryLedger(QuizEvent, "quiz events")
        self._observations = MemoryLedger(UnderstandingObserved, "observations")
        self._identity = MemoryLedger(IdentityLinked, "identity links")
        self._checkpoints = MemoryLedger(RunCheckpoint, "checkpoints")
        self._coverage: dict[str, MemoryLedger[CoverageFingerprint]] = {}
        self._positions: dict[str, Position] = {}
        self._vectors: dict[str, Vectors] = {}
        self._clusters: list[Cluster] = []
        self._lock = threading.Lock()

    def _coverage_ledger(self, source_id: str) -> MemoryLedger[CoverageFingerprint]:
        with self._lock:
            if source_id not in self._coverage:
                self._coverage[source_id] = MemoryLedger(
                    CoverageFingerprint, f"coverage of {source_id}", coverage_check(source_id)
                )
            return self._coverage[source_id]

    def positions(self) -> dict[str, Position]:
        with self._lock:
            return dict(self._positions)

    def save_positions(self, positions: Mapping[str, Position]) -> None:
        fresh = check_positions(positions)
        with self._lock:
            self._positions = fresh

    def embeddings(self, model: str) -> Vectors:
        with self._lock:
            return dict(self._vectors.get(model, {}))

    def save_embeddings(self, model: str, vectors: Mapping[str, VectorLike]) -> None:
        fresh = check_vectors(model, vectors)
        with self._lock:
            self._vectors[model] = fresh

    def clusters(self) -> list[Cluster]:
        with self._lock:
            return list(self._clusters)

    def save_clusters(self, clusters: Sequence[Cluster]) -> None:
        fresh = check_clusters(clusters)
        with self._lock:
            self._clusters = fresh
