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
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Generic, TypeVar

from pydantic import BaseModel
from studyhall.adapters.errors import translated
from studyhall.adapters.store.atomic import ensure_dir, fsync_dir, write_all
from studyhall.adapters.store.line_folder import Folded, LineFolder, RecordCheck
from studyhall.adapters.store.shape_guard import checked
from studyhall.adapters.store.tail import LedgerMark, LedgerTail, open_tail
from studyhall.core.contracts.ledger import LedgerRead
from studyhall.core.errors import StoreError

try:  # a cross-process lock around each append, where the platform has one
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

R = TypeVar("R", bound=BaseModel)

_BINARY = getattr(os, "O_BINARY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
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
        self._state: Folded[R] = Folded()
        self._lines = LineFolder(model, self._label, check)

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
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT | _BINARY | _CLOEXEC, 0o600)
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

    def tail(self, mark: LedgerMark | None) -> LedgerTail[R] | None:
        """Open the ledger to read only what follows ``mark`` (everything when None), keeping
        no records; None when ``mark`` no longer describes this file (replaced, truncated or
        rewritten) — the caller then starts over from ``tail(None)``."""
        with translated(f"read {self._label}", write=False):
            return open_tail(self.path, self._lines, mark)

    def _read_locked(self) -> LedgerRead[R]:
        try:
            f = open(self.path, "rb")  # noqa: SIM115 - closed by the with below
        except FileNotFoundError:
            if self._state.ident is not None:
                log.warning("%s disappeared; its records are gone from view", self._label)
                self._state = Folded()
            return self._result(self._state, None)
        with f:
            info = os.fstat(f.fileno())
            st = self._state
            ident = (info.st_dev, info.st_ino)
            if st.ident != ident or info.st_size < st.offset or not _guard_holds(f, st):
                if st.ident is not None:
                    log.warning("%s was replaced or truncated; reading it again", self._label)
                st = self._state = Folded(ident=ident)
            if info.st_size == st.offset:
                return self._result(st, None)
            f.seek(st.offset)
            before = st.skipped
            with _no_cyclic_gc():
                tail = self._lines.fold(f, st)
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

    @staticmethod
    def _result(st: Folded[R], torn: str | None) -> LedgerRead[R]:
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


def _guard_holds(f: BinaryIO, st: Folded[R]) -> bool:
    """True when the bytes just before the folded offset are still the ones we folded."""
    if st.offset == 0:
        return True
    f.seek(0)
    if f.read(len(st.head)) != st.head:
        return False
    n = len(st.guard)
    f.seek(st.offset - n)
    return f.read(n) == st.guard
