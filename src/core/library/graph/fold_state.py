"""The fold's state as values — what the fold cache keeps — and as plain data and back.

``GraphFold.export()`` gives a ``FoldState`` (immutable: safe to serialise on another thread);
``to_plain`` turns it into tuples of str/int/float/None/bytes that ``marshal`` can write, each
node's trail already packed; ``from_plain`` checks the shape and builds the state again, the
nodes keeping their trails packed until someone reads them. Anything off — another format
version, a wrong shape — raises ``FoldStateError``: the cache is then ignored and the graph is
folded from the ledgers, so the cache can only ever cost time, never change the graph.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel
from studyhall.core.contracts.graph import (
    EdgeAdded,
    IdentityLinked,
    PropositionCreated,
    QuizEvent,
    UnderstandingObserved,
)
from studyhall.core.library.graph.trail import Trail, pack_trail, parse_cache, unpack_trail
from studyhall.core.library.graph.view import SnapshotNode

STATE_VERSION = 7  # bump on any change to what is stored or how it is derived

# source, target, relation, record id, at, seq, weight (restored rows hold ``at`` as ISO text until
# they are needed in order)
EdgeRow = tuple[str, str, str, str, datetime, int, int]

_MODELS: dict[str, type[BaseModel]] = {
    "propositions": PropositionCreated,
    "identities": IdentityLinked,
    "edges": EdgeAdded,
    "quiz_events": QuizEvent,
    "observations": UnderstandingObserved,
}
_LEDGERS = frozenset({"checkpoints", *_MODELS})


class FoldStateError(ValueError):
    """A stored fold state that cannot be used (other version, wrong shape)."""


@dataclass(frozen=True)
class FoldState:
    counts: tuple[tuple[str, int, str | None], ...]  # ledger, records folded, last record id
    runs: frozenset[str]  # checkpointed runs
    pending: tuple[tuple[str, str, int, Any], ...]  # run, ledger, seq, record (no checkpoint yet)
    nodes: tuple[SnapshotNode, ...]  # in snapshot order
    orphans: tuple[tuple[str, tuple[str, ...], Trail], ...]  # records about unstated nodes
    edges: tuple[Any, ...]  # EdgeRow: the shown ones in order, then the waiting ones
    placed: int  # how many of ``edges`` are shown
    aliases: tuple[tuple[str, str], ...] = ()  # absorbed node -> the node it went into


def parse_edge_rows(rows: Iterable[Any]) -> list[EdgeRow]:
    parse = parse_cache()
    return [r if type(r[4]) is not str else (r[0], r[1], r[2], r[3], parse(r[4]), r[5], r[6])
            for r in rows]


def to_plain(state: FoldState) -> tuple[Any, ...]:
    return (
        STATE_VERSION,
        state.counts,
        tuple(sorted(state.runs)),
        tuple((run, name, seq, record.model_dump(mode="json", by_alias=True))
              for run, name, seq, record in state.pending),
        _columns(state.nodes),
        tuple((node_id, sources, pack_trail(trail)) for node_id, sources, trail in state.orphans),
        tuple((r[0], r[1], r[2], r[3], r[4] if type(r[4]) is str else r[4].isoformat(), r[5],
               r[6]) for r in state.edges),
        state.placed,
        state.aliases,
    )


def from_plain(plain: Any) -> FoldState:
    try:
        version, counts, runs, pending, nodes, orphans, edges, placed, aliases = plain
        if version != STATE_VERSION:
            raise FoldStateError(f"fold state version {version!r}, expected {STATE_VERSION}")
        built = _nodes(nodes)
        return FoldState(
            counts=tuple((_ledger(name), int(count), last) for name, count, last in counts),
            runs=frozenset(runs),
            pending=tuple((run, name, seq, _MODELS[name].model_validate(data))
                          for run, name, seq, data in pending),
            nodes=built,
            orphans=tuple((node_id, tuple(sources), unpack_trail(_blob(blob)))
                          for node_id, sources, blob in orphans),
            edges=tuple(tuple(r) for r in edges if len(r) == 7 or _bad("an edge row")),
            placed=_count(placed, len(edges)),
            aliases=tuple((str(old), str(new)) for old, new in aliases),
        )
    except FoldStateError:
        raise
    except (ValueError, TypeError, KeyError) as e:  # pydantic's ValidationError is a ValueError
        raise FoldStateError(f"the stored fold state does not fit ({e})") from e


def _columns(nodes: tuple[SnapshotNode, ...]) -> tuple[tuple[Any, ...], ...]:
    """Nodes as columns — fewer objects to store and load than a tuple per node."""
    shared: dict[tuple[str, ...], tuple[str, ...]] = {}  # equal source lists stored once
    return (tuple(n.id for n in nodes), tuple(n.text for n in nodes),
            tuple(n.created_at.isoformat() for n in nodes),
            tuple(shared.setdefault(n.sources, n.sources) for n in nodes),
            tuple(n.state for n in nodes), tuple(n.value for n in nodes),
            tuple(n.seq for n in nodes), tuple(n.created_id for n in nodes),
            tuple(n.packed() for n in nodes))


def _nodes(columns: Any) -> tuple[SnapshotNode, ...]:
    ids, texts, created, sources, states, values, seqs, created_ids, trails = columns
    if not len(ids) == len(texts) == len(created) == len(sources) == len(states) \
            == len(values) == len(seqs) == len(created_ids) == len(trails):
        _bad("node table")
    if not all(type(t) is bytes for t in trails) or not all(type(c) is str for c in created):
        _bad("node")
    return tuple(map(SnapshotNode, ids, texts, created, sources, states, values, seqs,
                     created_ids, trails))


def _blob(value: Any) -> bytes:
    return value if type(value) is bytes else _bad("a trail")


def _ledger(name: Any) -> str:
    return str(name) if name in _LEDGERS else _bad(f"ledger {name!r}")


def _count(value: Any, limit: int) -> int:
    return value if type(value) is int and 0 <= value <= limit else _bad("the edge count")


def _bad(what: str) -> Any:
    raise FoldStateError(f"the stored fold state has a malformed {what}")
