"""Turning ledger bytes into records: complete lines only, each shape-guarded, replays ignored.

``LineFolder`` is what a whole read (``JsonlLedger.read``) and a tail read (``tail.py``) share:
an invalid line (bad JSON, or not the record's shape, or refused by the ledger's extra check)
is skipped and counted with its reason — never guessed at — and a record whose id was seen
before is a replayed append, counted and ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import BinaryIO, Generic, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError
from studyhall.adapters.store.shape_guard import describe_validation
from studyhall.core.contracts.ledger import LedgerRead

R = TypeVar("R", bound=BaseModel)

CHUNK = 1 << 20
GUARD = 64  # bytes at the start and before the folded offset, re-checked on every read
MAX_REASONS = 100

# An extra per-record rule beyond the shape (e.g. "belongs to this source"): a message or None.
RecordCheck = Callable[[BaseModel], str | None]


@dataclass
class Folded(Generic[R]):
    """What a reader has folded so far, and where in the file it stopped."""

    ident: tuple[int, int] | None = None  # (st_dev, st_ino) of the file folded
    offset: int = 0  # bytes folded: always just after a newline
    lines: int = 0
    head: bytes = b""  # the first bytes of the file
    guard: bytes = b""  # the last bytes before ``offset``
    records: list[R] = field(default_factory=list)
    count: int = 0  # records taken out of ``records`` by a sink (tail reads)
    ids: set[str] = field(default_factory=set)
    known: tuple[Collection[str], ...] = ()  # ids of an earlier mark (tail reads)
    skipped: int = 0
    reasons: list[str] = field(default_factory=list)
    replayed: int = 0
    cached: LedgerRead[R] | None = None


class LineFolder(Generic[R]):
    def __init__(self, model: type[R], label: str, check: RecordCheck | None) -> None:
        self.model = model
        self.label = label
        self.check = check
        self._many: TypeAdapter[list[R]] | None = None  # built on first use

    def fold(self, f: BinaryIO, st: Folded[R], sink: Callable[[list[R]], None] | None = None,
             guard: int = GUARD) -> bytes:
        """Fold every complete line from the current position; return the partial tail. With
        a ``sink``, each chunk's records go to it (and are not kept)."""
        carry = b""
        while True:
            chunk = f.read(CHUNK)
            if not chunk:
                return carry
            buf = carry + chunk if carry else chunk
            end = buf.rfind(b"\n")
            if end < 0:
                carry = buf
                continue
            complete, carry = buf[: end + 1], buf[end + 1 :]
            self.fold_lines(st, complete.split(b"\n")[:-1])
            if sink is not None and st.records:
                records, st.records = st.records, []
                sink(records)
                st.count += len(records)
            st.offset += len(complete)
            st.guard = (st.guard + complete)[-guard:]
            if len(st.head) < guard:
                st.head = (st.head + complete)[:guard]
            st.cached = None

    def fold_lines(self, st: Folded[R], lines: list[bytes]) -> None:
        """Fold complete lines: validated all at once when every one is a good record, else one
        by one so each bad line is skipped with its own reason."""
        numbered = [(st.lines + 1 + j, line) for j, line in enumerate(lines) if line.strip()]
        st.lines += len(lines)
        parsed: list[R] | None = None
        if len(numbered) > 1:
            if self._many is None:
                self._many = TypeAdapter(list[self.model])  # type: ignore[name-defined]
            try:
                parsed = self._many.validate_json(b"[" + b",".join(ln for _, ln in numbered) + b"]")
            except ValidationError:
                parsed = None
            if parsed is not None and len(parsed) != len(numbered):
                parsed = None  # some line held more than one value: judge line by line
        if parsed is None:
            for number, line in numbered:
                try:
                    record = self.model.model_validate_json(line)
                except ValidationError as e:
                    self.skip(st, number, describe_validation(e, self.model))
                    continue
                self.add(st, number, record)
        else:
            for (number, _), record in zip(numbered, parsed, strict=True):
                self.add(st, number, record)

    def add(self, st: Folded[R], number: int, record: R) -> None:
        problem = self.check(record) if self.check else None
        if problem:
            self.skip(st, number, problem)
            return
        rid = getattr(record, "id", None)
        if not isinstance(rid, str):
            self.skip(st, number, f"does not fit {self.model.__name__} (no id)")
            return
        if rid in st.ids or (st.known and any(rid in ids for ids in st.known)):
            st.replayed += 1
            return
        st.ids.add(rid)
        st.records.append(record)

    def skip(self, st: Folded[R], number: int, why: str) -> None:
        st.skipped += 1
        if len(st.reasons) < MAX_REASONS:
            st.reasons.append(f"{self.label} line {number}: {why}")
