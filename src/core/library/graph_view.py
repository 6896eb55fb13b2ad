"""The shapes of the derived graph: one read of the ledgers, and the snapshot derived from it
(nodes with their trail and understanding state, edges, clusters, positions, gating)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import NamedTuple

from ..contracts.graph import (
    Cluster,
    EdgeAdded,
    IdentityLinked,
    Position,
    PropositionCreated,
    QuizEvent,
    RunCheckpoint,
    UnderstandingObserved,
)
from .mastery import Gate, Score, gate, prerequisites
from .merger import KnownGraph


@dataclass(frozen=True)
class Ledgers:
    """One read of every graph ledger (what the fold consumes)."""

    propositions: Sequence[PropositionCreated] = ()
    identities: Sequence[IdentityLinked] = ()
    edges: Sequence[EdgeAdded] = ()
    quiz_events: Sequence[QuizEvent] = ()
    observations: Sequence[UnderstandingObserved] = ()
    checkpoints: Sequence[RunCheckpoint] = ()


class EvidenceEntry(NamedTuple):
    source_id: str
    message_id: str
    quote: str
    run_id: str
    at: datetime


class SnapshotNode(NamedTuple):
    id: str
    text: str
    created_at: datetime
    sources: tuple[str, ...]
    evidence: tuple[EvidenceEntry, ...]
    quiz: tuple[QuizEvent, ...]
    observations: tuple[UnderstandingObserved, ...]
    score: Score

    @property
    def state(self) -> str:
        return self.score.state


class SnapshotEdge(NamedTuple):
    id: str
    source: str
    target: str
    kind: str


@dataclass(frozen=True)
class GraphSnapshot:
    nodes: tuple[SnapshotNode, ...] = ()
    edges: tuple[SnapshotEdge, ...] = ()
    clusters: tuple[Cluster, ...] = ()
    positions: Mapping[str, Position] = field(default_factory=dict)
    runs: frozenset[str] = frozenset()  # checkpointed run ids

    def known(self) -> KnownGraph:
        return KnownGraph(
            node_ids=frozenset(self._by_id),
            edges=frozenset((e.source, e.target, e.kind) for e in self.edges),
        )

    @cached_property
    def _by_id(self) -> dict[str, SnapshotNode]:
        return {n.id: n for n in self.nodes}

    @cached_property
    def _prerequisites(self) -> dict[str, list[str]]:
        return prerequisites((e.source, e.target) for e in self.edges if e.kind == "follows")

    def node(self, node_id: str) -> SnapshotNode | None:
        return self._by_id.get(node_id)

    def gate(self, node_id: str) -> Gate | None:
        """Prerequisite gating of a node (None when it has no ``follows`` prerequisite)."""
        if node_id not in self._prerequisites:
            return None
        scores = {p: n.score.value for p in self._prerequisites[node_id]
                  if (n := self._by_id.get(p)) is not None}
        return gate(node_id, self._prerequisites, scores)
