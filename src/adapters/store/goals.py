"""``JsonlGoalStore``: the learner's goals under ``goals/``.

    saved.jsonl     every version of every goal (GoalSaved), whole
    removed.jsonl   one tombstone per deleted goal (GoalRemoved)

Each is a ``JsonlLedger``: crash-safe appends (a torn last line is skipped by readers, never
glued to the next record, so a kill mid-write leaves the version before it), tolerant
incremental reads, replayed ids ignored. The goal desk (``server/runtime/learner/goals.py``)
is the only writer.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from studyhall.adapters.store.ledger import JsonlLedger
from studyhall.adapters.store.ledger_methods import Ledger
from studyhall.core.contracts.goals import GoalRemoved, GoalSaved
from studyhall.core.contracts.ledger import LedgerRead


class GoalLedgerMethods:
    """Mixin shared with the in-memory fake: the subclass sets the two ledgers."""

    _saved: Ledger
    _removed: Ledger

    def save(self, records: Sequence[GoalSaved]) -> None:
        self._saved.append(records)

    def remove(self, records: Sequence[GoalRemoved]) -> None:
        self._removed.append(records)

    def saved(self) -> LedgerRead[GoalSaved]:
        return self._saved.read()

    def removed(self) -> LedgerRead[GoalRemoved]:
        return self._removed.read()


class JsonlGoalStore(GoalLedgerMethods):
    def __init__(self, root: Path) -> None:
        self._root = Path(root)
        name = self._root.name
        self._saved: JsonlLedger[Any] = JsonlLedger(
            self._root / "saved.jsonl", GoalSaved, label=f"{name}/saved.jsonl")
        self._removed: JsonlLedger[Any] = JsonlLedger(
            self._root / "removed.jsonl", GoalRemoved, label=f"{name}/removed.jsonl")

    def __repr__(self) -> str:
        return f"JsonlGoalStore({str(self._root)!r})"
