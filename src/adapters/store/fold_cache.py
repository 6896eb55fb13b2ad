"""``graph/.fold-cache``: the graph fold's state and the ledger marks it covers, in one file.

It is derived and disposable: deleting it changes nothing but the time of the next cold read.
So it is written atomically (temp file, fsync, rename) and read suspiciously — a header naming
this format and the Python that wrote it (``marshal`` bytes are only read by the same
version), the payload's length and CRC-32 — and anything off is a miss, never an error.

Each mark keeps the record ids its ledger has delivered (a replayed append must still be
ignored after a restart); they stay packed — a new line is looked up by its CRC first — until
an id may really be there.
"""

from __future__ import annotations

import logging
import marshal
import struct
import sys
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from typing import Any

from studyhall.adapters.store.tail import LedgerMark

log = logging.getLogger(__name__)

FORMAT = 1
NAME = ".fold-cache"
_HEADER = f"studyhall fold cache {FORMAT} {sys.implementation.cache_tag}\n".encode()
_SIZES = struct.Struct("<QI")  # payload length, CRC-32 of the payload
_MARSHAL_VERSION = 4


@dataclass(frozen=True)
class GraphMarks:
    """Where a tail reader stopped in each graph ledger (None: the file did not exist)."""

    ledgers: dict[str, LedgerMark | None]


class PackedIds(Collection[str]):
    """A set of record ids kept as ``marshal`` bytes, with the sorted CRC-32s of the ids: a
    lookup of an id that is not there (nearly every one: only a replay is there) costs a
    binary search; the ids themselves are unpacked only when a CRC matches."""

    __slots__ = ("_blob", "_crcs", "_ids", "_size")

    def __init__(self, blob: bytes, crcs: bytes, size: int) -> None:
        self._blob, self._size = blob, size
        self._crcs = array("I")
        self._crcs.frombytes(crcs)
        self._ids: frozenset[str] | None = None

    @classmethod
    def of(cls, ids: Collection[str]) -> PackedIds:
        if isinstance(ids, PackedIds):
            return ids
        crcs = array("I", sorted(_crc(i) for i in ids))
        return cls(marshal.dumps(tuple(ids), _MARSHAL_VERSION), crcs.tobytes(), len(ids))

    def _unpacked(self) -> frozenset[str]:
        if self._ids is None:
            self._ids = frozenset(marshal.loads(self._blob))
        return self._ids

    def __contains__(self, item: object) -> bool:
        if self._ids is not None or not isinstance(item, str):
            return item in self._unpacked()
        crc, crcs = _crc(item), self._crcs
        i = bisect_left(crcs, crc)
        return i < len(crcs) and crcs[i] == crc and item in self._unpacked()

    def __iter__(self) -> Iterator[str]:
        return iter(self._unpacked())

    def __len__(self) -> int:
        return self._size

    def plain(self) -> tuple[bytes, bytes, int]:
        return self._blob, self._crcs.tobytes(), self._size


def _crc(record_id: str) -> int:
    return zlib.crc32(record_id.encode("utf-8", "surrogatepass"))


def encode(marks: GraphMarks, state: Any) -> bytes:
    payload = marshal.dumps((_marks_plain(marks), state), _MARSHAL_VERSION)
    return _HEADER + _SIZES.pack(len(payload), zlib.crc32(payload)) + payload


def decode(data: bytes, label: str) -> tuple[GraphMarks, Any] | None:
    """The marks and the plain fold state, or None (logged) when the file is not usable."""
    start = len(_HEADER) + _SIZES.size
    why = None
    if not data.startswith(_HEADER) or len(data) < start:
        why = "written by another version"
    else:
        size, crc = _SIZES.unpack_from(data, len(_HEADER))
        payload = memoryview(data)[start:]
        if len(payload) != size or zlib.crc32(payload) != crc:
            why = "damaged (length or checksum)"
        else:
            try:
                marks_plain, state = marshal.loads(payload)
                return _marks(marks_plain), state
            except (ValueError, TypeError, EOFError) as e:
                why = f"unreadable ({e})"
    log.warning("%s is %s; folding the graph from its ledgers instead", label, why)
    return None


def _marks_plain(marks: GraphMarks) -> tuple[Any, ...]:
    return tuple((name, None if m is None else (
        m.ident, m.offset, m.lines, m.count, m.head, m.guard, m.size, m.mtime_ns,
        tuple(PackedIds.of(ids).plain() for ids in m.ids), m.skipped, m.reasons, m.replayed))
        for name, m in marks.ledgers.items())


def _marks(plain: Any) -> GraphMarks:
    ledgers: dict[str, LedgerMark | None] = {}
    for name, m in plain:
        if m is None:
            ledgers[str(name)] = None
            continue
        ident, offset, lines, count, head, guard, size, mtime_ns, ids, skipped, reasons, \
            replayed = m
        if not all(type(v) is int for v in (offset, lines, count, size, mtime_ns, skipped,
                                             replayed, *ident)) or len(ident) != 2:
            raise ValueError(f"a malformed mark for {name!r}")
        if not all(type(v) is bytes for v in (head, guard, *(b for blob, crcs, _ in ids
                                                             for b in (blob, crcs)))):
            raise ValueError(f"a malformed mark for {name!r}")
        ledgers[str(name)] = LedgerMark(
            ident=(ident[0], ident[1]), offset=offset, lines=lines, count=count, head=head,
            guard=guard, size=size, mtime_ns=mtime_ns,
            ids=tuple(PackedIds(blob, crcs, int(n)) for blob, crcs, n in ids),
            skipped=skipped, reasons=tuple(str(r) for r in reasons), replayed=replayed)
    return GraphMarks(ledgers)
