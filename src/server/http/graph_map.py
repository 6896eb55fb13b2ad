"""The slim body of ``GET /api/graph/map``: what Home needs to paint the graph, in parts.

One JSON array per field (a node is its index in every column), a short label instead of the
text, counts instead of the evidence trail: about a seventh of ``GET /api/graph``'s bytes. Nodes
come most important first (evidence, quiz answers, links, learned), so a first part of the
top-N nodes paints the map at once and the rest follows (``start``/``limit``). An edge is sent
with the part that holds the later of its two nodes. A node's detail (text, evidence, links) is
``GET /api/graph/nodes/{id}`` (``graph_detail.py``). ``topic_states`` is ``states`` with a
topic's mastery rolled up from its ideas (``core/library/learner/rollup.py``); an edge's pair is
(from, to), so the dock can tell "links to" from "linked from"; ``edge_weights`` says how many
links each one stands for (one edge per linked pair of notes). ``topic`` is, for an idea, the
index of the topic it belongs to (its strongest ``supports`` edge's; ``idea_topics``), else -1:
the map draws ideas only as satellites of their topic at topic zoom.

The columns are kept per graph version: a read that finds the same nodes, edges, clusters and
positions as the last one reuses them (and a client that names that version as ``known`` gets
``{"version", "unchanged": true}``), so polling during an import costs a comparison.
"""

from __future__ import annotations

import operator
import secrets
from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

import orjson
from studyhall.core.contracts.graph import Cluster, Position
from studyhall.core.library.graph.snapshot import GraphSnapshot, SnapshotEdge, SnapshotNode
from studyhall.core.library.learner.rollup import idea_topics, ties, topic_masteries

# The order of ``states``' codes; the client reads the names from the body.
STATE_NAMES = ("solid", "shaky", "not-tried", "corrected-misconception")
_STATE_CODE = {name: code for code, name in enumerate(STATE_NAMES)}
_NOT_TRIED = _STATE_CODE["not-tried"]
_LEARNED_BONUS = 4  # as the client's importance (graph/regions.js): learned nodes first
# Labels are cut here; the map's labels are shorter still (42 characters, cut at a word).
LABEL_CHARS = 48
_new = tuple.__new__  # a named tuple from its values, without the keyword machinery


class _Head(NamedTuple):
    """What the map shows of a node that depends on the node alone."""

    node: SnapshotNode  # held, so that its identity stays its own
    label: str
    state: int
    evidence: int
    quiz: int


class _Key(NamedTuple):
    """What the cached columns were built from (compared by identity where the fold allows)."""

    nodes: tuple[SnapshotNode, ...]
    edges: tuple[SnapshotEdge, ...]
    clusters: tuple[Cluster, ...]
    positions: Mapping[str, Position]


@dataclass
class _Columns:
    """One version of the map: node columns in importance order, edges by their later end."""

    version: str
    nodes: dict[str, list[Any]]
    edges: list[int]  # flat index pairs
    edge_weights: list[int]  # how many links each edge stands for, parallel to the pairs
    edge_ends: list[int]  # the later end of each edge, ascending
    clusters: list[dict[str, Any]]
    sources: list[str]
    parts: dict[tuple[int, int], bytes]  # (start, end) -> encoded part


def label_of(text: str) -> str:
    cut = text[:LABEL_CHARS]
    if "\n" in cut or "  " in cut or "\t" in cut:  # runs of whitespace would take its room
        return " ".join(text[:LABEL_CHARS * 4].split())[:LABEL_CHARS]
    return cut


class GraphMap:
    """Renders snapshots to map parts; one per route (not thread-safe: callers serialise)."""

    def __init__(self) -> None:
        self._heads: dict[str, _Head] = {}
        self._key: _Key | None = None
        self._columns: _Columns | None = None
        self._boot = secrets.token_hex(3)  # versions of another process never match
        self._builds = 0

    def version(self, snapshot: GraphSnapshot) -> str:
        return self._current(snapshot).version

    def part(self, snapshot: GraphSnapshot, start: int = 0, limit: int | None = None) -> bytes:
        """Nodes ``start`` to ``start + limit`` (all from ``start`` without a limit) of
        ``snapshot``'s map, with the edges whose later end is among them; the first part also
        carries the clusters and the sources table."""
        columns = self._current(snapshot)
        total = len(columns.nodes["ids"])
        start = min(start, total)
        end = total if limit is None else min(total, start + limit)
        got = columns.parts.get((start, end))
        if got is None:
            got = columns.parts[(start, end)] = _encode(columns, start, end, total)
        return got

    def _current(self, snapshot: GraphSnapshot) -> _Columns:
        if self._columns is None or self._key is None or not _same(self._key, snapshot):
            self._builds += 1
            self._columns = self._build(snapshot, f"{self._boot}.{self._builds}")
            self._key = _Key(snapshot.nodes, snapshot.edges, snapshot.clusters,
                             snapshot.positions)
        return self._columns

    def _build(self, snapshot: GraphSnapshot, version: str) -> _Columns:
        nodes, positions = snapshot.nodes, snapshot.positions
        old = self._heads
        heads = [h if (h := old.get(n.id)) is not None and h.node is n else _head_of(n)
                 for n in nodes]
        self._heads = {h.node.id: h for h in heads}  # nodes gone leave the cache with them
        # Most important first: the first part paints what matters most of a big graph.
        at = {n.id: i for i, n in enumerate(nodes)}
        degree = [0] * len(nodes)
        for e in snapshot.edges:
            degree[at[e.source]] += 1
            degree[at[e.target]] += 1
        weight = [h.evidence + 2 * h.quiz + d + (0 if h.state == _NOT_TRIED else _LEARNED_BONUS)
                  for h, d in zip(heads, degree)]
        order = sorted(range(len(nodes)), key=weight.__getitem__, reverse=True)  # stable
        heads = [heads[i] for i in order]
        ids = [h.node.id for h in heads]
        index = {node_id: i for i, node_id in enumerate(ids)}
        where = [positions.get(node_id) for node_id in ids]
        source_index: dict[str, int] = {}
        add = source_index.setdefault
        src = [add(h.node.sources[0], len(source_index)) if len(h.node.sources) == 1
               else [add(s, len(source_index)) for s in h.node.sources] for h in heads]
        cluster = [-1] * len(ids)
        clusters = []
        for ci, c in enumerate(snapshot.clusters):
            for node_id in c.node_ids:
                cluster[index[node_id]] = ci
            clusters.append({"id": c.id, "label": c.label, "region": c.region,
                             "size": len(c.node_ids)})
        weighed = sorted(((index[e.source], index[e.target], e.weight) for e in snapshot.edges),
                         key=lambda p: max(p[0], p[1]))
        pairs = [(a, b) for a, b, _ in weighed]
        found = ties(snapshot)  # each idea's topics (learner/rollup.py)
        rolled = topic_masteries(snapshot, found=found)  # a topic's state with its ideas'

        topic_states = [h.state if (m := rolled.get(h.node.id)) is None
                        else _STATE_CODE.get(m.state, _NOT_TRIED) for h in heads]
        owner = idea_topics(found)  # an idea is drawn as its topic's satellite
        topic = [-1 if (t := owner.get(node_id)) is None else index[t] for node_id in ids]
        return _Columns(
            version=version,
            nodes={
                "ids": ids, "labels": [h.label for h in heads],
                "states": [h.state for h in heads],
                # A tenth of a layout unit is finer than a pixel at any zoom the map allows.
                "x": [None if p is None else round(p.x, 1) for p in where],
                "y": [None if p is None else round(p.y, 1) for p in where],
                "cluster": cluster, "evidence": [h.evidence for h in heads],
                "quiz": [h.quiz for h in heads], "src": src, "topic_states": topic_states,
                "topic": topic,
            },
            edges=[i for pair in pairs for i in pair],
            edge_weights=[w for _, _, w in weighed],
            edge_ends=[max(pair) for pair in pairs],
            clusters=clusters, sources=list(source_index), parts={},
        )


def _encode(columns: _Columns, start: int, end: int, total: int) -> bytes:
    first = bisect_left(columns.edge_ends, start)
    last = bisect_left(columns.edge_ends, end)
    body: dict[str, Any] = {
        "version": columns.version, "total": total, "start": start, "count": end - start,
        "next": end if end < total else None, "state_names": STATE_NAMES,
        **{name: values[start:end] for name, values in columns.nodes.items()},
        "edges": columns.edges[2 * first:2 * last],
        "edge_weights": columns.edge_weights[first:last],
    }
    if start == 0:
        body["clusters"], body["sources"] = columns.clusters, columns.sources
    return orjson.dumps(body)


def _head_of(node: SnapshotNode) -> _Head:
    trail = node.rows()
    return _new(_Head, (node, label_of(node.text), _STATE_CODE.get(node.state, _NOT_TRIED),
                        len(trail[0]), len(trail[1])))


def _same(key: _Key, snapshot: GraphSnapshot) -> bool:
    """Whether ``snapshot`` draws the same map as the one ``key`` was built from. Nodes and
    positions are compared by identity: the fold keeps a node's object until it changes, and
    the store hands out the same position objects until the file changes."""
    if snapshot.edges is not key.edges or len(snapshot.nodes) != len(key.nodes):
        return False
    if not all(map(operator.is_, snapshot.nodes, key.nodes)):
        return False
    if snapshot.clusters != key.clusters:
        return False
    now, then = snapshot.positions, key.positions
    return len(now) == len(then) and all(map(operator.is_, map(now.get, then), then.values()))


def unchanged(version: str) -> bytes:
    return orjson.dumps({"version": version, "unchanged": True})


def stale(version: str) -> bytes:
    return orjson.dumps({"version": version, "stale": True})
