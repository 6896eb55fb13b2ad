"""``InMemoryGoalStore``: the GoalStore contract over lists (the file's shape guard)."""

from __future__ import annotations

from studyhall.adapters.fakes.ledger import MemoryLedger
from studyhall.adapters.store.goals import GoalLedgerMethods
from studyhall.core.contracts.goals import GoalRemoved, GoalSaved


class InMemoryGoalStore(GoalLedgerMethods):
    def __init__(self) -> None:
        self._saved = MemoryLedger(GoalSaved, "saved goals")
        self._removed = MemoryLedger(GoalRemoved, "removed goals")
