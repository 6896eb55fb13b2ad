"""Which nodes an export covers: a scope (``core.contracts.scope_text``'s grammar) applied to a
snapshot."""

from __future__ import annotations

from studyhall.core.contracts.artifacts import Scope
from studyhall.core.errors import NotFound
from studyhall.core.library.graph.topics import topic_family
from studyhall.core.library.graph.view import GraphSnapshot, SnapshotNode

_TOPIC_EXPORT_LIMIT = 10_000  # a topic's whole family: an export is not a writer's budget


def nodes_in(snapshot: GraphSnapshot, scope: Scope) -> list[SnapshotNode]:
    """The scope's nodes in graph order; ``NotFound`` when the cluster, source, session, topic
    or a selected node is not in the graph (an empty export would hide a typo)."""
    if scope.type == "graph":
        return list(snapshot.nodes)
    if scope.type == "selection":
        missing = [i for i in scope.node_ids if snapshot.node(i) is None]
        if missing:
            raise NotFound(f"No node {missing[0]!r} in the knowledge graph. Pick one from "
                           "`studyhall graph export` or GET /api/graph.")
        chosen = set(scope.node_ids)
        return [n for n in snapshot.nodes if n.id in chosen]
    ident = scope.id or ""
    if scope.type == "cluster":
        cluster = next((c for c in snapshot.clusters if c.id == ident), None)
        if cluster is None:
            raise NotFound(f"No cluster {ident!r} in the knowledge graph. Cluster ids are "
                           "in `studyhall graph export` (\"clusters\").")
        members = set(cluster.node_ids)
        return [n for n in snapshot.nodes if n.id in members]
    if scope.type == "topic":
        family = {n.id for n in topic_family(snapshot, ident, _TOPIC_EXPORT_LIMIT)}
        if not family:
            raise NotFound(f"No topic {ident!r} in the knowledge graph. Pick one from "
                           "`studyhall graph export` or GET /api/graph.")
        return [n for n in snapshot.nodes if n.id in family]
    found = [n for n in snapshot.nodes if ident in n.sources]
    if not found:
        where = ("`studyhall sources --json`" if scope.type == "source" else
                 "GET /api/chats")
        raise NotFound(f"No node cites {scope.type} {ident!r}. Its ids are in {where}.")
    return found
