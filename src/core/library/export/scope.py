"""Which part of the graph an export covers: ``all``, ``cluster:ID``, ``source:ID`` or
``node:ID``, parsed once and applied to a snapshot."""

from __future__ import annotations

from typing import Literal, NamedTuple

from studyhall.core.errors import InvalidInput, NotFound
from studyhall.core.library.graph.view import GraphSnapshot, SnapshotNode

ScopeKind = Literal["all", "cluster", "source", "node"]
_KINDS: tuple[ScopeKind, ...] = ("cluster", "source", "node")
SCOPE_HELP = "all, cluster:ID, source:ID or node:ID"


class Scope(NamedTuple):
    kind: ScopeKind
    id: str = ""

    def __str__(self) -> str:
        return "all" if self.kind == "all" else f"{self.kind}:{self.id}"


def parse_scope(text: str | None) -> Scope:
    raw = (text or "all").strip()
    if raw == "all":
        return Scope("all")
    kind, sep, ident = raw.partition(":")
    if not sep or kind not in _KINDS or not ident.strip():
        raise InvalidInput(f"Unknown scope {raw!r}: use {SCOPE_HELP}.")
    return Scope(kind, ident.strip())


def nodes_in(snapshot: GraphSnapshot, scope: Scope) -> list[SnapshotNode]:
    """The scope's nodes in graph order; ``NotFound`` when the cluster, source or node is not
    in the graph (an empty export would hide a typo)."""
    if scope.kind == "all":
        return list(snapshot.nodes)
    if scope.kind == "node":
        node = snapshot.node(scope.id)
        if node is None:
            raise NotFound(f"No node {scope.id!r} in the knowledge graph. Pick one from "
                           "`studyhall graph export` or GET /api/graph.")
        return [node]
    if scope.kind == "cluster":
        cluster = next((c for c in snapshot.clusters if c.id == scope.id), None)
        if cluster is None:
            raise NotFound(f"No cluster {scope.id!r} in the knowledge graph. Cluster ids are "
                           "in `studyhall graph export` (\"clusters\").")
        members = set(cluster.node_ids)
        return [n for n in snapshot.nodes if n.id in members]
    found = [n for n in snapshot.nodes if scope.id in n.sources]
    if not found:
        raise NotFound(f"No node cites source {scope.id!r}. Source ids are in "
                       "`studyhall sources --json`.")
    return found
