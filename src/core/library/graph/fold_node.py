"""``NodeFold``: what the fold knows about one node while records about it arrive.

Every rule here is canonical — the result depends on the set of records, never on the order
they were applied in or on how the ledgers were split between reads — so an incremental fold,
a fold restored from the cache and a fresh fold agree exactly:

- the node is named by its earliest statement (time, then record id);
- a quote cited twice keeps its first citation in ledger order (its ``Origin``);
- sources are listed in order of their first mention in ledger order;
- of two events for the same quiz question, the earliest counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from operator import itemgetter
from typing import Any

from studyhall.core.library.graph.trail import (
    EvidenceRow,
    ObservationRow,
    Origin,
    QuizRow,
    Trail,
    origin,
)
from studyhall.core.library.graph.view import SnapshotNode, signals_of
from studyhall.core.library.learner.mastery import score

# Ledger ranks: the order a fresh fold applies the ledgers in (and the first part of Origin).
PROPOSITIONS, IDENTITIES = 0, 1

_by_time_and_id = itemgetter(2, 0)  # quiz and observation rows: (at, id)


def _evidence_order(row: EvidenceRow) -> tuple[datetime, str, Origin]:
    return (row[4], row[3], row[5])  # time, run, then ledger order


def aware(at: datetime) -> datetime:
    """A naive time is taken as UTC, so a hand-edited line cannot make times incomparable."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


class NodeFold:
    __slots__ = ("created", "evidence", "observations", "quiz", "sources")

    def __init__(self) -> None:
        self.created: tuple[datetime, str, int, str] | None = None  # at, record id, seq, text
        self.evidence: dict[tuple[str, str, str], EvidenceRow] = {}
        self.sources: dict[str, Origin] = {}
        self.quiz: dict[tuple[str, int], QuizRow] = {}
        self.observations: dict[str, ObservationRow] = {}

    @classmethod
    def reopen(cls, node: SnapshotNode) -> NodeFold:
        """Continue folding a derived node (its rows hold everything the fold knew)."""
        acc = cls()
        acc.created = (node.created_at, node.created_id, node.seq, node.text)
        acc.load(node.sources, node.rows())
        return acc

    def load(self, sources: Sequence[str], trail: Trail) -> None:
        evidence, quiz, observations, source_keys = trail
        self.evidence = {(r[0], r[1], r[2]): r for r in evidence}
        self.sources = dict(zip(sources, source_keys, strict=True))
        self.quiz = {(r[4], r[5]): r for r in quiz}
        self.observations = {r[0]: r for r in observations}

    # --- records ---------------------------------------------------------------------------

    def state(self, text: str, at: datetime, seq: int, record_id: str) -> None:
        """A proposition naming this node; the earliest statement names it."""
        created = self.created
        if created is None or (at, record_id) < (created[0], created[1]):
            self.created = (at, record_id, seq, text)

    def cite(self, rank: int, seq: int, source_id: str, evidence: Sequence[Any], run_id: str,
             at: datetime) -> None:
        """A record (proposition or identity link) bringing its source and evidence."""
        base = origin(rank, seq, 0)
        self._mention(source_id, base)
        known = self.evidence
        for j, e in enumerate(evidence, 1):
            where = base + j
            key = (e.source_id, e.message_id, e.quote)
            old = known.get(key)
            if old is None or where < old[5]:
                known[key] = (e.source_id, e.message_id, e.quote, run_id, at, where)
            self._mention(e.source_id, where)

    def _mention(self, source_id: str, where: Origin) -> None:
        first = self.sources.get(source_id)
        if first is None or where < first:
            self.sources[source_id] = where

    def absorb(self, other: NodeFold) -> None:
        """Take in everything a node folded into this one knew (never its name): the same
        canonical rules as if its records had named this node."""
        known = self.evidence
        for key, row in other.evidence.items():
            old = known.get(key)
            if old is None or row[5] < old[5]:
                known[key] = row
        for source_id, where in other.sources.items():
            self._mention(source_id, where)
        for quiz in other.quiz.values():
            self.answer(quiz)
        for observation in other.observations.values():
            self.observe(observation)

    def answer(self, row: QuizRow) -> None:
        key = (row[4], row[5])
        old = self.quiz.get(key)
        if old is None or (row[2], row[0]) < (old[2], old[0]):
            self.quiz[key] = row

    def observe(self, row: ObservationRow) -> None:
        self.observations.setdefault(row[0], row)  # ids are unique: a second is a replay

    # --- derivation ------------------------------------------------------------------------

    def trail(self) -> tuple[tuple[str, ...], Trail]:
        """The node's sources and trail, each in its canonical order."""
        evidence = list(self.evidence.values())
        if len(evidence) > 1:
            evidence.sort(key=_evidence_order)
        quiz = list(self.quiz.values())
        if len(quiz) > 1:
            quiz.sort(key=_by_time_and_id)
        observations = list(self.observations.values())
        if len(observations) > 1:
            observations.sort(key=_by_time_and_id)
        mentions = self.sources
        sources = sorted(mentions, key=mentions.__getitem__) if len(mentions) > 1 \
            else list(mentions)
        return tuple(sources), (tuple(evidence), tuple(quiz), tuple(observations),
                                tuple([mentions[s] for s in sources]))

    def build(self, node_id: str) -> SnapshotNode:
        assert self.created is not None
        at, record_id, seq, text = self.created
        sources, trail = self.trail()
        result = score(signals_of(trail[1], trail[2]))
        return SnapshotNode(node_id, text, at, sources, result.state, result.value, seq,
                            record_id, trail)
