"""The shapes of the derived graph: one read of the ledgers, and the snapshot derived from it
(nodes with their trail and understanding state, edges, clusters, positions, gating)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import NamedTuple

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
from studyhall.core.library.extraction.merger import KnownGraph
from studyhall.core.library.graph.trail import (
    ObservationRow,
    QuizRow,
    Trail,
    pack_trail,
    unpack_trail,
)
from studyhall.core.library.learner.mastery import Gate, Score, Signal, gate, prerequisites, score


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


class QuizEntry(NamedTuple):
    """A graded answer on a node, as the quiz-event record gave it."""

    id: str
    verdict: str
    at: datetime
    source_id: str  # the chat
    tool_call_id: str
    question_index: int
    run_id: str
    difficulty: str  # easy / medium / hard; "" when the question did not say


class ObservationEntry(NamedTuple):
    """An extractor's observation of the learner's understanding of a node."""

    id: str
    level: str
    at: datetime
    source_id: str
    message_ids: tuple[str, ...]
    run_id: str


_new = tuple.__new__  # builds a named tuple from a row without re-checking it


class SnapshotNode:
    """One derived node: its text, sources and understanding state, and its trail (evidence,
    quiz history, observations, and the score those explain).

    The trail is held as compact rows and turned into entries when read; a node restored from
    the fold cache keeps it packed until then. ``seq`` (the creating record's line in the
    propositions ledger) and ``created_id`` are the fold's bookkeeping: they order nodes that
    were created at the same time and tell whether a later record is an earlier statement.
    """

    __slots__ = ("_created", "_score", "_trail", "created_id", "id", "seq", "sources", "state",
                 "text", "value")

    def __init__(self, id: str, text: str, created_at: datetime | str, sources: tuple[str, ...],
                 state: str, value: float | None, seq: int, created_id: str,
                 trail: Trail | bytes) -> None:
        self.id = id
        self.text = text
        self._created = created_at  # ISO text from the cache until first read
        self.sources = sources
        self.state = state
        self.value = value
        self.seq = seq
        self.created_id = created_id
        self._trail = trail
        self._score: Score | None = None

    @property
    def created_at(self) -> datetime:
        created = self._created
        if type(created) is str:
            created = self._created = datetime.fromisoformat(created)
        return created  # type: ignore[return-value]

    def rows(self) -> Trail:
        """The trail as compact rows (decoded from the cache the first time it is asked for)."""
        trail = self._trail
        if type(trail) is bytes:
            trail = self._trail = unpack_trail(trail)
        return trail  # type: ignore[return-value]

    def packed(self) -> bytes:
        """The trail's byte form for the fold cache (free while it was never decoded)."""
        trail = self._trail
        return trail if type(trail) is bytes else pack_trail(trail)  # type: ignore[arg-type]

    @property
    def evidence(self) -> tuple[EvidenceEntry, ...]:
        return tuple([_new(EvidenceEntry, row[:5]) for row in self.rows()[0]])

    @property
    def quiz(self) -> tuple[QuizEntry, ...]:
        return tuple([_new(QuizEntry, row) for row in self.rows()[1]])

    @property
    def observations(self) -> tuple[ObservationEntry, ...]:
        return tuple([_new(ObservationEntry, row) for row in self.rows()[2]])

    @property
    def score(self) -> Score:
        """The score with the signals that explain it (``value`` and ``state`` are its)."""
        if self._score is None:
            _, quiz, observations, _ = self.rows()
            self._score = score(signals_of(quiz, observations))
        return self._score

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SnapshotNode):
            return NotImplemented
        return (self.id == other.id and self.text == other.text
                and self.created_at == other.created_at and self.sources == other.sources
                and self.state == other.state and self.value == other.value
                and self.seq == other.seq and self.created_id == other.created_id
                and self.rows() == other.rows())

    def __hash__(self) -> int:
        return hash((self.id, self.text, self.created_at))

    def __repr__(self) -> str:
        return f"SnapshotNode(id={self.id!r}, text={self.text!r}, state={self.state!r})"


def signals_of(quiz: Iterable[QuizRow], observations: Iterable[ObservationRow]) -> list[Signal]:
    """A node's mastery signals: its graded answers and its observations."""
    signals = [Signal(q[2], "quiz", q[1], f"{q[4]}/q{q[5] + 1}", q[7]) for q in quiz]
    signals += [Signal(o[2], "observation", o[1], o[0]) for o in observations]
    return signals


class SnapshotEdge(NamedTuple):
    id: str
    source: str
    target: str
    kind: str
    weight: int = 1  # how many links between two notes it stands for


@dataclass(frozen=True)
class GraphSnapshot:
    nodes: tuple[SnapshotNode, ...] = ()
    edges: tuple[SnapshotEdge, ...] = ()
    clusters: tuple[Cluster, ...] = ()
    positions: Mapping[str, Position] = field(default_factory=dict)
    runs: frozenset[str] = frozenset()  # checkpointed run ids
    # Absorbed node -> the node it now is: the learner ledgers key by node id and follow this.
    absorbed: Mapping[str, str] = field(default_factory=dict)

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
        scores = {p: n.value for p in self._prerequisites[node_id]
                  if (n := self._by_id.get(p)) is not None}
        return gate(node_id, self._prerequisites, scores)
