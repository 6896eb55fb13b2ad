"""What a node builds on and what leads on from it, read off the graph's edges for the dock.

Edges run two ways: a ``supports`` edge goes from the finer idea to the one it hangs under (a
heading to its note's topic, a session finding to the topic it was anchored to), a ``follows``
edge from a prerequisite to what depends on it. So a node *builds on* the targets of its
``supports`` edges and the sources of the ``follows`` edges into it, and *leads to* the rest.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass

from studyhall.core.library.graph.view import GraphSnapshot, SnapshotNode


@dataclass(frozen=True)
class Linked:
    """One neighbour of the node: the node, the edge's kind, and the session it was learned in
    (the first of its sources that is a session; None for a node from notes only)."""

    node: SnapshotNode
    relation: str
    session: str | None


@dataclass(frozen=True)
class NodeLinks:
    builds_on: tuple[Linked, ...]
    leads_to: tuple[Linked, ...]


def node_links(snapshot: GraphSnapshot, node_id: str, sessions: Container[str]) -> NodeLinks:
    """The node's neighbours, each once, in edge order; ``sessions`` tells which source ids
    are sessions (chats)."""
    builds_on: dict[str, str] = {}
    leads_to: dict[str, str] = {}
    for edge in snapshot.edges:
        if edge.source == edge.target:
            continue
        if edge.source == node_id:
            side, other = (builds_on if edge.kind == "supports" else leads_to), edge.target
        elif edge.target == node_id:
            side, other = (leads_to if edge.kind == "supports" else builds_on), edge.source
        else:
            continue
        side.setdefault(other, edge.kind)
    return NodeLinks(_resolve(snapshot, builds_on, sessions), _resolve(snapshot, leads_to, sessions))


def _resolve(snapshot: GraphSnapshot, ids: dict[str, str],
             sessions: Container[str]) -> tuple[Linked, ...]:
    out = []
    for other, relation in ids.items():
        node = snapshot.node(other)
        if node is None:  # an edge to a node the graph no longer shows
            continue
        session = next((s for s in node.sources if s in sessions), None)
        out.append(Linked(node, relation, session))
    return tuple(out)
