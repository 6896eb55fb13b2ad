"""Tail reads of a ledger: only the records appended after a mark, streamed in chunks, kept by
nobody but the caller — so a long-lived fold (or one restored from the fold cache) reads a
large ledger once and then only its new lines, without a second copy of every record.

A ``LedgerMark`` says where a reader stopped and holds what it must remember to go on exactly
as a whole read would: the ids already seen (a replayed append is ignored) and the counts of
skipped and replayed lines. It is immutable, so it can be saved on another thread. Before any
record is read, the mark is checked against the file: the same file (device and inode), not
shorter than the offset, the same first bytes and the same bytes just before the offset, and —
when the size is unchanged — the same modification time. A mark that fails is refused (the
caller folds from the start). A rewrite in the middle of a file that also grew is not noticed:
ledgers are append-only and checking every byte would cost a whole read.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Generic, TypeVar

from pydantic import BaseModel
from studyhall.adapters.store.line_folder import Folded, LineFolder

log = logging.getLogger(__name__)

R = TypeVar("R", bound=BaseModel)

MARK_GUARD = 4096  # bytes kept from the file's start and from just before the offset
_MAX_ID_SETS = 8  # id sets kept apart before they are merged (each read adds one)


@dataclass(frozen=True)
class LedgerMark:
    ident: tuple[int, int]  # (st_dev, st_ino)
    offset: int  # bytes folded, just after a newline
    lines: int
    count: int  # records delivered so far
    head: bytes  # the file's first bytes (up to MARK_GUARD)
    guard: bytes  # the bytes just before ``offset`` (up to MARK_GUARD)
    size: int  # the file's size and modification time when marked: an in-place
    mtime_ns: int  # rewrite that kept the size is noticed
    ids: tuple[Collection[str], ...]  # record ids delivered, in sets (merged now and then)
    skipped: int = 0
    reasons: tuple[str, ...] = ()
    replayed: int = 0


class LedgerTail(Generic[R]):
    """An open ledger positioned after a mark; ``feed`` reads to its end once."""

    def __init__(self, f: BinaryIO | None, lines: LineFolder[R], st: Folded[R]) -> None:
        self._f, self._lines, self._st = f, lines, st

    def feed(self, sink: Callable[[list[R]], None]) -> LedgerMark | None:
        """Give every new valid record to ``sink`` (in chunks, in file order) and return the
        mark to continue from (None: there is no file)."""
        f, st = self._f, self._st
        if f is None:
            return None
        with f:
            self._f = None
            before = st.skipped
            self._lines.fold(f, st, sink, MARK_GUARD)
            info = os.fstat(f.fileno())  # after reading: never older than what was folded
        if st.skipped > before:
            log.warning("%s: skipped %d unreadable line(s): %s", self._lines.label,
                        st.skipped - before, "; ".join(st.reasons[-3:]))
        assert st.ident is not None
        # The new ids' set is handed over as it is: nothing else holds it any more.
        known = _merged((*st.known, st.ids) if st.ids else st.known)
        return LedgerMark(ident=st.ident, offset=st.offset, lines=st.lines, count=st.count,
                          head=st.head, guard=st.guard, size=info.st_size,
                          mtime_ns=info.st_mtime_ns, ids=known, skipped=st.skipped,
                          reasons=tuple(st.reasons), replayed=st.replayed)

    def close(self) -> None:
        if self._f is not None:
            self._f.close()
            self._f = None


def _merged(sets: tuple[Collection[str], ...]) -> tuple[Collection[str], ...]:
    """Few sets to look ids up in: the small ones merge, the first (largest) one is kept."""
    if len(sets) <= _MAX_ID_SETS:
        return sets
    first, rest = sets[0], frozenset().union(*sets[1:])
    return (first, rest) if len(rest) < len(first) else (frozenset().union(first, rest),)


def open_tail(path: Path, lines: LineFolder[R], mark: LedgerMark | None) -> LedgerTail[R] | None:
    try:
        f = open(path, "rb")  # noqa: SIM115 - closed by LedgerTail
    except FileNotFoundError:
        if mark is not None:
            log.warning("%s disappeared; folding the graph again", lines.label)
            return None
        return LedgerTail(None, lines, Folded())
    try:
        info = os.fstat(f.fileno())
        ident = (info.st_dev, info.st_ino)
        if mark is None:
            return LedgerTail(f, lines, Folded(ident=ident))
        if not _holds(f, info, ident, mark):
            log.warning("%s was replaced, truncated or rewritten; folding the graph again",
                        lines.label)
            f.close()
            return None
        f.seek(mark.offset)
        st: Folded[R] = Folded(ident=ident, offset=mark.offset, lines=mark.lines,
                               head=mark.head, guard=mark.guard, count=mark.count,
                               known=mark.ids, skipped=mark.skipped,
                               reasons=list(mark.reasons), replayed=mark.replayed)
        return LedgerTail(f, lines, st)
    except BaseException:
        f.close()
        raise


def _holds(f: BinaryIO, info: os.stat_result, ident: tuple[int, int], mark: LedgerMark) -> bool:
    if ident != mark.ident or info.st_size < mark.offset:
        return False
    if info.st_size == mark.size and info.st_mtime_ns != mark.mtime_ns:
        return False  # same size, written since: rewritten in place
    if mark.offset == 0:
        return True
    if f.read(len(mark.head)) != mark.head:
        return False
    f.seek(mark.offset - len(mark.guard))
    return f.read(len(mark.guard)) == mark.guard
