"""A node's trail held compactly — plain tuples, cheap to build, to keep and to serialise — and
its byte form in the fold cache (decoded only when someone reads that node's trail).

Rows are exact tuples (not named tuples) so the cyclic GC can stop tracking them; the public
entry types (``EvidenceEntry``, ``QuizEntry``, ``ObservationEntry``) are views built on read.
An ``Origin`` says where a mention came from — ledger rank, the record's place in its ledger,
the position in the record, packed into one int that orders like that triple (an int, not a
tuple: dicts of them stay untracked by the GC) — and breaks ties so that the derived order
never depends on how the ledgers were split between reads.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable
from datetime import datetime

Origin = int
_SEQ_SHIFT, _RANK_SHIFT = 48, 96  # room for 2**48 records and 2**48 mentions per record


def origin(rank: int, seq: int, position: int) -> Origin:
    """(rank, seq, position) as one int with the same order."""
    return (rank << _RANK_SHIFT) | (seq << _SEQ_SHIFT) | position
# source_id, message_id, quote, run_id, at, origin
EvidenceRow = tuple[str, str, str, str, datetime, Origin]
# id, verdict, at, source_id, tool_call_id, question_index, run_id, difficulty ("": not given)
QuizRow = tuple[str, str, datetime, str, str, int, str, str]
# id, level, at, source_id, message_ids, run_id
ObservationRow = tuple[str, str, datetime, str, tuple[str, ...], str]
# evidence, quiz, observations, and the first mention of each of the node's sources (aligned
# with ``SnapshotNode.sources``)
Trail = tuple[
    tuple[EvidenceRow, ...], tuple[QuizRow, ...], tuple[ObservationRow, ...], tuple[Origin, ...]
]

_MARSHAL_VERSION = 4  # refs to repeated objects: shared strings are stored once


class TrailDecodeError(ValueError):
    """A packed trail that does not decode (a damaged or foreign fold cache)."""


def pack_trail(trail: Trail) -> bytes:
    """Bytes for the fold cache; datetimes travel as ISO 8601 text (offset kept exactly)."""
    evidence, quiz, observations, source_keys = trail
    return marshal.dumps(
        (
            tuple((e[0], e[1], e[2], e[3], e[4].isoformat(), e[5]) for e in evidence),
            tuple((q[0], q[1], q[2].isoformat(), q[3], q[4], q[5], q[6], q[7]) for q in quiz),
            tuple((o[0], o[1], o[2].isoformat(), o[3], o[4], o[5]) for o in observations),
            source_keys,
        ),
        _MARSHAL_VERSION,
    )


def unpack_trail(blob: bytes) -> Trail:
    try:
        evidence, quiz, observations, source_keys = marshal.loads(blob)
        when = parse_cache()
        return (
            tuple((s, m, q, r, when(a), _int(o)) for s, m, q, r, a, o in evidence),
            tuple((i, v, when(a), s, c, n, r, d) for i, v, a, s, c, n, r, d in quiz),
            tuple((i, lv, when(a), s, tuple(ms), r) for i, lv, a, s, ms, r in observations),
            tuple(_int(k) for k in source_keys),
        )
    except (ValueError, TypeError, EOFError) as e:
        raise TrailDecodeError(f"a packed trail does not decode ({e})") from e


def _int(value: object) -> int:
    if type(value) is not int:
        raise TypeError(f"expected an origin, got {type(value).__name__}")
    return value


def parse_cache() -> Callable[[str], datetime]:
    """``datetime.fromisoformat`` remembering what it parsed (records of a run share times)."""
    seen: dict[str, datetime] = {}

    def parse(text: str) -> datetime:
        value = seen.get(text)
        if value is None:
            if not isinstance(text, str):
                raise TypeError(f"expected an ISO time, got {type(text).__name__}")
            value = seen[text] = datetime.fromisoformat(text)
        return value

    return parse

