"""``InMemoryArtifactStore``: the ArtifactStore contract over lists (the file's shape guard)."""

from __future__ import annotations

from studyhall.adapters.fakes.ledger import MemoryLedger
from studyhall.adapters.store.artifacts import ArtifactLedgerMethods
from studyhall.core.contracts.artifacts import Artifact, ArtifactRemoved


class InMemoryArtifactStore(ArtifactLedgerMethods):
    def __init__(self) -> None:
        self._kept = MemoryLedger(Artifact, "kept artifacts")
        self._removed = MemoryLedger(ArtifactRemoved, "removed artifacts")
