"""The GraphStore ledger methods, shared by the file store and the in-memory fake.

Both keep one ledger object per record kind (``append(records)`` / ``read()``); only how a
ledger persists differs, so the per-kind methods are written once here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from studyhall.core.contracts.graph import (
    CoverageFingerprint,
    EdgeAdded,
    IdentityLinked,
    PropositionCreated,
    QuizEvent,
    RunCheckpoint,
    UnderstandingObserved,
)
from studyhall.core.contracts.ledger import LedgerRead

T = TypeVar("T")


class Ledger(Protocol):
    def append(self, records: Sequence[Any]) -> None: ...
    def read(self) -> LedgerRead[Any]: ...


class GraphLedgerMethods:
    """Mixin: the subclass sets the ledgers below and implements ``_coverage_ledger``."""

    _propositions: Ledger
    _edges: Ledger
    _quiz: Ledger
    _observations: Ledger
    _identity: Ledger
    _checkpoints: Ledger

    def _coverage_ledger(self, source_id: str) -> Ledger:
        raise NotImplementedError

    def append_propositions(self, records: Sequence[PropositionCreated]) -> None:
        self._propositions.append(records)

    def append_edges(self, records: Sequence[EdgeAdded]) -> None:
        self._edges.append(records)

    def append_quiz_events(self, records: Sequence[QuizEvent]) -> None:
        self._quiz.append(records)

    def append_observations(self, records: Sequence[UnderstandingObserved]) -> None:
        self._observations.append(records)

    def append_identity_links(self, records: Sequence[IdentityLinked]) -> None:
        self._identity.append(records)

    def append_coverage(self, source_id: str, records: Sequence[CoverageFingerprint]) -> None:
        self._coverage_ledger(source_id).append(records)

    def append_checkpoint(self, record: RunCheckpoint) -> None:
        self._checkpoints.append([record])

    def propositions(self) -> LedgerRead[PropositionCreated]:
        return self._propositions.read()

    def edges(self) -> LedgerRead[EdgeAdded]:
        return self._edges.read()

    def quiz_events(self) -> LedgerRead[QuizEvent]:
        return self._quiz.read()

    def observations(self) -> LedgerRead[UnderstandingObserved]:
        return self._observations.read()

    def identity_links(self) -> LedgerRead[IdentityLinked]:
        return self._identity.read()

    def coverage(self, source_id: str) -> LedgerRead[CoverageFingerprint]:
        return self._coverage_ledger(source_id).read()

    def checkpoints(self) -> LedgerRead[RunCheckpoint]:
        return self._checkpoints.read()
