"""The encoded body of ``GET /api/graph``, kept warm between reads.

``snapshot_to_dict`` encoded by orjson (compact UTF-8, byte for byte what ``orjson.dumps`` of
the whole dict gives; the same value the standard library would send), but built without
holding every dict at once and re-building only what changed since the last body. Building the
dicts, not encoding them, is what costs: at 10k nodes about 0.4 s of CPU, against 0.18 s for
the standard library's encoder and 0.02 s for orjson. So the cache stays:

- A node's own part (id … observations) depends on nothing but the node, and a
  ``SnapshotNode`` is never changed once built — the fold replaces a node that learnt
  something with a new object. So that part is cached against the node object itself (held,
  so its identity cannot be reused) and re-encoded only when the node is a different object.
- The rest of a node (cluster, position, gate) depends on other nodes and the side files: it
  is encoded at every render (cheap: mostly ``null``).
- The edges part is cached against the snapshot's edges tuple (the fold hands out the same
  tuple until an edge changes); clusters are few and encoded every time.

Nodes are encoded as soon as they are built and dropped (edges a chunk at a time), so a big
graph's hundreds of thousands of small dicts never pile up for the cyclic collector to rescan.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from itertools import islice
from typing import Any, NamedTuple

import orjson
from studyhall.core.contracts.graph import Position
from studyhall.core.library.graph.interchange import cluster_dicts, edge_dicts, gates_of, node_head
from studyhall.core.library.graph.snapshot import GraphSnapshot, SnapshotEdge, SnapshotNode
from studyhall.core.library.learner.mastery import Gate

_encode = orjson.dumps  # NaN and infinities become null (a score or position never holds one)
# orjson hands back each result in a buffer of at least ~4 KB: many small results held at once
# (one per edge) would cost 4 KB each, so lists are encoded a chunk of items per call.
_CHUNK = 1024
_PLAIN_TAIL = b',"cluster":null,"position":null}'  # most nodes: no cluster, place or gate


class _Part(NamedTuple):
    node: SnapshotNode  # held, so that its identity stays its own
    head: bytes  # the node's own part, without the closing brace
    where: Hashable  # what the tail was encoded from
    tail: bytes


class GraphBody:
    """Renders snapshots to body bytes; one per reader (not thread-safe: callers serialise)."""

    def __init__(self) -> None:
        self._parts: dict[str, _Part] = {}
        self._edges: tuple[tuple[SnapshotEdge, ...], bytes] | None = None

    def render(self, snapshot: GraphSnapshot) -> bytes:
        return b"".join((b'{"nodes":[', self._nodes(snapshot), b'],"edges":[',
                         self._edges_part(snapshot), b'],"clusters":[',
                         _items(cluster_dicts(snapshot)), b"]}"))

    def _nodes(self, snapshot: GraphSnapshot) -> bytes:
        cluster_of = {nid: c.id for c in snapshot.clusters for nid in c.node_ids}
        positions, gates = snapshot.positions, gates_of(snapshot)
        old = self._parts
        fresh: dict[str, _Part] = {}
        out: list[bytes] = []
        for node in snapshot.nodes:
            cluster, position, gate = (cluster_of.get(node.id), positions.get(node.id),
                                       gates.get(node.id))
            # Coordinates by their text: 0.0 == -0.0 and 1 == 1.0, but they encode apart.
            where = (cluster, None if position is None else (repr(position.x), repr(position.y)),
                     None if gate is None else gate.blocking)  # ``ready`` follows from it
            part = old.get(node.id)
            if part is None or part.node is not node:
                # The dict's closing brace is dropped: the tail closes it.
                part = _Part(node, _encode(node_head(node))[:-1], where,
                             _tail(cluster, position, gate))
            elif part.where != where:
                part = part._replace(where=where, tail=_tail(cluster, position, gate))
            fresh[node.id] = part
            out += (part.head, part.tail, b",")
        if out:
            out.pop()
        self._parts = fresh  # nodes gone from the graph leave the cache with it
        return b"".join(out)

    def _edges_part(self, snapshot: GraphSnapshot) -> bytes:
        if self._edges is not None and self._edges[0] is snapshot.edges:
            return self._edges[1]
        body = _items(edge_dicts(snapshot))
        self._edges = (snapshot.edges, body)
        return body


def _items(items: Iterable[dict[str, Any]]) -> bytes:
    """The inside of a JSON array of ``items`` (no brackets)."""
    parts: list[bytes] = []
    it = iter(items)
    while chunk := list(islice(it, _CHUNK)):
        parts.append(_encode(chunk)[1:-1])  # a copy: the oversized buffer goes at once
    return b",".join(parts)


def _tail(cluster: str | None, position: Position | None, gate: Gate | None) -> bytes:
    """The rest of a node's dict, from its first comma to its closing brace."""
    if cluster is None and position is None and gate is None:
        return _PLAIN_TAIL
    tail: dict[str, Any] = {
        "cluster": cluster,
        "position": {"x": position.x, "y": position.y} if position is not None else None,
    }
    if gate is not None:
        tail["ready"] = gate.ready
        tail["blocked_by"] = [{"id": i, "score": s} for i, s in gate.blocking]
    return b"," + _encode(tail)[1:]

