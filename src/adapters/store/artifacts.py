"""``JsonlArtifactStore``: kept study artifacts under ``artifacts/``.

    kept.jsonl      every artifact kept (Artifact), its content whole
    removed.jsonl   one tombstone per deleted artifact (ArtifactRemoved)

Each is a ``JsonlLedger``: crash-safe appends (a torn last line is skipped by readers, never
glued to the next record), tolerant incremental reads, replayed ids ignored. The artifact desk
(``server/runtime/workbench/artifacts.py``) is the only writer.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from studyhall.adapters.store.ledger import JsonlLedger
from studyhall.adapters.store.ledger_methods import Ledger
from studyhall.core.contracts.artifacts import Artifact, ArtifactRemoved
from studyhall.core.contracts.ledger import LedgerRead


class ArtifactLedgerMethods:
    """Mixin shared with the in-memory fake: the subclass sets the two ledgers."""

    _kept: Ledger
    _removed: Ledger

    def keep(self, records: Sequence[Artifact]) -> None:
        self._kept.append(records)

    def remove(self, records: Sequence[ArtifactRemoved]) -> None:
        self._removed.append(records)

    def kept(self) -> LedgerRead[Artifact]:
        return self._kept.read()

    def removed(self) -> LedgerRead[ArtifactRemoved]:
        return self._removed.read()


class JsonlArtifactStore(ArtifactLedgerMethods):
    def __init__(self, root: Path) -> None:
        self._root = Path(root)
        name = self._root.name
        self._kept: JsonlLedger[Any] = JsonlLedger(
            self._root / "kept.jsonl", Artifact, label=f"{name}/kept.jsonl")
        self._removed: JsonlLedger[Any] = JsonlLedger(
            self._root / "removed.jsonl", ArtifactRemoved, label=f"{name}/removed.jsonl")

    def __repr__(self) -> str:
        return f"JsonlArtifactStore({str(self._root)!r})"
