"""``JsonlLedger``: an append-only JSON-lines file of one record type, crash-safe, read tolerantly.

Writes: every record is shape-guarded first (a batch is written whole or not at all); the batch
goes out in one append, flushed and fsynced before ``append`` returns. If the file does not end
with a newline (a writer was killed mid-line) the append first writes one, so a torn fragment
never glues onto a good record. A failed append truncates the file back to its previous size.

Reads: a torn last line or an invalid line (bad JSON, or not the record's shape) is skipped and
counted with a reason, never guessed at; a replayed record id is ignored. The reader folds
incrementally: it keeps the byte offset it has folded and the folded state, so a re-read parses
only the new lines. A truncated or replaced file (new inode, shorter size) is noticed and re-read
from the start, and so is a rewrite in place that changes the first or the last bytes folded (a
full check would cost a full read; ledgers are append-only, nobody should rewrite them).
"""

from __future__ import annotations

import gc
import logging
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Generic, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError
from studyhall.adapters.errors import translated
from studyhall.core.errors import StoreError
from studyhall.core.ports import LedgerRead

from .atomic import ensure_dir, fsync_dir, write_all
from .guard import checked, describe_validation

try:  # a cross-process lock around each append, where the platform has one
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

R = TypeVar("R", bound=BaseModel)

_BINARY = getattr(os, "O_BINARY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_CHUNK = 1 << 20
_GUARD = 64  # bytes at the start and before the folded offset, re-checked on every read
_MAX_REASONS = 100

# An extra per-record rule beyond the shape (e.g. "belongs to this source"): a message or None.
RecordCheck = Callable[[BaseModel], str | None]


@dataclass
class _Folded(Generic[R]):
    """What the reader has folded so far, and where in the file it stopped."""

    ident: tuple[int, int] | None = None  # (st_dev, st_ino) of the file folded
    offset: int = 0  # bytes folded: always just after a newline
    lines: int = 0
    head: bytes = b""  # the first bytes of the file
    guard: bytes = b""  # the last bytes before ``offset``
    records: list[R] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    skipped: int = 0
    reasons: list[str] = field(default_factory=list)
    replayed: int = 0
    cached: LedgerRead[R] | None = None


class JsonlLedger(Generic[R]):
    """One ledger file of ``model`` records; safe to share between threads of one process."""

    def __init__(
        self,
        path: Path,
        model: type[R],
        *,
        label: str | None = None,
        check: RecordCheck | None = None,
    ) -> None:
        self.path = Path(path)
        self._model = model
        self._label = label or self.path.name  # how messages name the file, e.g. graph/edges.jsonl
        self._check = check
        self._lock = threading.Lock()
        self._state: _Folded[R] = _Folded()
        self._many: TypeAdapter[list[R]] | None = None  # built on first read

    def __repr__(self) -> str:
        return f"JsonlLedger({str(self.path)!r}, {self._model.__name__})"

    # --- writing ---------------------------------------------------------------------------

    def append(self, records: Sequence[R]) -> None:
        """Append a batch durably (one fsync); refuse the whole batch if any record is invalid."""
        if isinstance(records, BaseModel):
            records = [records]  # one record passed alone
        n = len(records)
        if n == 0:
            return
        lines: list[bytes] = []
        for i, record in enumerate(records):
            what = f"record {i + 1} of {n} for {self._label}"
            copy, data = checked(self._model, record, what)
            problem = self._check(copy) if self._check else None
            if problem:
                raise StoreError(f"Refused to save {what}: {problem}. Nothing was written.")
            lines.append(data)
            lines.append(b"\n")
        payload = b"".join(lines)
        with self._lock, translated(f"append {n} record(s) to {self._label}"):
            self._append_bytes(payload)

    def _append_bytes(self, payload: bytes) -> None:
        ensure_dir(self.path.parent)
        existed = self.path.exists()
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT | _BINARY | _CLOEXEC, 0o644)
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)  # released by close
            size = os.fstat(fd).st_size
            if size > 0:
                os.lseek(fd, size - 1, os.SEEK_SET)
                if os.read(fd, 1) != b"\n":
                    payload = b"\n" + payload  # start on a clean line after a torn one
            try:
                write_all(fd, payload)
                os.fsync(fd)
            except BaseException:
                # Not acknowledged: take back whatever part of the batch reached the file.
                try:
                    os.ftruncate(fd, size)
                except OSError as e:  # the torn tail will be skipped by readers
                    log.warning("could not roll back a failed append to %s: %s", self.path, e)
                raise
        finally:
            os.close(fd)
        if not existed:
            fsync_dir(self.path.parent)

    # --- reading ---------------------------------------------------------------------------

    def read(self) -> LedgerRead[R]:
        """Every valid record once, in append order; parses only what is new since last read."""
        with self._lock, translated(f"read {self._label}", write=False):
            return self._read_locked()

    def _read_locked(self) -> LedgerRead[R]:
        try:
            f = open(self.path, "rb")  # noqa: SIM115 - closed by the with below
        except FileNotFoundError:
            if self._state.ident is not None:
                log.warning("%s disappeared; its records are gone from view", self._label)
                self._state = _Folded()
            return self._result(self._state, None)
        with f:
            info = os.fstat(f.fileno())
            st = self._state
            ident = (info.st_dev, info.st_ino)
            if st.ident != ident or info.st_size < st.offset or not _guard_holds(f, st):
                if st.ident is not None:
                    log.warning("%s was replaced or truncated; reading it again", self._label)
                st = self._state = _Folded(ident=ident)
            if info.st_size == st.offset:
                return self._result(st, None)
            f.seek(st.offset)
            before = st.skipped
            with _no_cyclic_gc():
                tail = self._fold(f, st)
        if st.skipped > before:
            log.warning(
                "%s: skipped %d unreadable line(s): %s",
                self._label,
                st.skipped - before,
                "; ".join(st.reasons[-3:]),
            )
        torn = None
        if tail.strip():
            torn = (
                f"{self._label} line {st.lines + 1}: torn last line ({len(tail)} bytes, "
                "no newline; an interrupted write)"
            )
        return self._result(st, torn)

    def _fold(self, f: BinaryIO, st: _Folded[R]) -> bytes:
        """Fold every complete line from the current position; return the partial tail."""
        carry = b""
        while True:
            chunk = f.read(_CHUNK)
            if not chunk:
                return carry
            buf = carry + chunk if carry else chunk
            end = buf.rfind(b"\n")
            if end < 0:
                carry = buf
                continue
            complete, carry = buf[: end + 1], buf[end + 1 :]
            self._fold_lines(st, complete.split(b"\n")[:-1])
            st.offset += len(complete)
            st.guard = (st.guard + complete)[-_GUARD:]
            if len(st.head) < _GUARD:
                st.head = (st.head + complete)[:_GUARD]
            st.cached = None

    def _fold_lines(self, st: _Folded[R], lines: list[bytes]) -> None:
        """Fold complete lines: validated all at once when every one is a good record (about
        twice as fast), else one by one so each bad line is skipped with its own reason."""
        numbered = [(st.lines + 1 + j, line) for j, line in enumerate(lines) if line.strip()]
        st.lines += len(lines)
        parsed: list[R] | None = None
        if len(numbered) > 1:
            if self._many is None:
                self._many = TypeAdapter(list[self._model])  # type: ignore[name-defined]
            try:
                parsed = self._many.validate_json(b"[" + b",".join(ln for _, ln in numbered) + b"]")
            except ValidationError:
                parsed = None
            if parsed is not None and len(parsed) != len(numbered):
                parsed = None  # some line held more than one value: judge line by line
        if parsed is None:
            for number, line in numbered:
                try:
                    record = self._model.model_validate_json(line)
                except ValidationError as e:
                    self._skip(st, number, describe_validation(e, self._model))
                    continue
                self._add(st, number, record)
        else:
            for (number, _), record in zip(numbered, parsed, strict=True):
                self._add(st, number, record)

    def _add(self, st: _Folded[R], number: int, record: R) -> None:
        problem = self._check(record) if self._check else None
        if problem:
            self._skip(st, number, problem)
            return
        rid = getattr(record, "id", None)
        if not isinstance(rid, str):
            self._skip(st, number, f"does not fit {self._model.__name__} (no id)")
            return
        if rid in st.ids:
            st.replayed += 1
            return
        st.ids.add(rid)
        st.records.append(record)

    def _skip(self, st: _Folded[R], number: int, why: str) -> None:
        st.skipped += 1
        if len(st.reasons) < _MAX_REASONS:
            st.reasons.append(f"{self._label} line {number}: {why}")

    @staticmethod
    def _result(st: _Folded[R], torn: str | None) -> LedgerRead[R]:
        if st.cached is None:
            st.cached = LedgerRead(
                records=tuple(st.records),
                skipped=st.skipped,
                skipped_reasons=tuple(st.reasons),
                replayed=st.replayed,
            )
        if torn is None:
            return st.cached
        return LedgerRead(
            records=st.cached.records,
            skipped=st.skipped + 1,
            skipped_reasons=(*st.cached.skipped_reasons, torn),
            replayed=st.replayed,
        )


@contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """Pause the cycle collector while folding: records hold no cycles, and its passes over the
    growing list of records made a cold read of 100k records about three times slower."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _guard_holds(f: BinaryIO, st: _Folded[R]) -> bool:
    """True when the bytes just before the folded offset are still the ones we folded."""
    if st.offset == 0:
        return True
    f.seek(0)
    if f.read(len(st.head)) != st.head:
        return False
    n = len(st.guard)
    f.seek(st.offset - n)
    return f.read(n) == st.guard
