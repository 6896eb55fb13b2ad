"""What a tolerant ledger read returns (shared by every append-only store)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class LedgerRead(Generic[T]):
    """What a tolerant ledger read returns: the valid records and how many lines were skipped.

    ``records`` are in append order, one per id (a replayed append of a known id is ignored and
    counted in ``replayed``). ``skipped`` counts lines that were torn or did not parse or fit the
    record's shape; ``skipped_reasons`` says which and why (``"<file> line N: ..."``).
    """

    records: tuple[T, ...]
    skipped: int = 0
    skipped_reasons: tuple[str, ...] = field(default=())
    replayed: int = 0
