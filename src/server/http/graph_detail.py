"""One node in full, for the dock when Home selects it: ``GET /api/graph/nodes/{id}``.

``{"node", "neighbours", "edges", "clusters", "links", "sections", "mastery_rollup",
"from_session"}``: the node as ``GET /api/graph`` shows it (text, state, score and its
explanation, evidence, quiz, observations, sources, cluster, position, gate), the nodes it links to or from (``id``,
``text``, ``state``), those links, its cluster (``id``, ``label``) if it has one, and ``links`` =
``{"builds_on": [LINK], "leads_to": [LINK]}``, LINK = ``{"id", "text", "state", "relation",
"session"}`` (``session``: the chat it was learned in, or null; ``core/library/graph/links.py``).
``sections``: a note topic's outline, SECTION = ``{"source_id", "message_id" (what its evidence
cites), "anchor" (to deep-link), "heading", "level", "evidence" (count)}``, only the headings its
note has now (``core/library/graph/outline.py``); ``mastery_rollup``: its state with its ideas'
(``state``, ``own``, ``ideas``, ``tried``, ``solid``, ``shaky``;
``core/library/learner/rollup.py``). The map body (``graph_map.py``) carries only what paints
the whole graph; this is the rest, one node at a time, in one read. ``from_session`` =
``{"id", "title"}`` of the session a session finding (or session topic) came from — its first
source — or null, so the dock can say "From your session «title»".
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from studyhall.core.contracts.sources import Source
from studyhall.core.errors import NotFound
from studyhall.core.library.graph.interchange import node_head
from studyhall.core.library.graph.links import Linked, node_links
from studyhall.core.library.graph.outline import node_outline, node_sections_now
from studyhall.core.library.graph.snapshot import GraphSnapshot, SnapshotEdge
from studyhall.core.library.learner.rollup import TopicMastery, roll_up, topic_masteries
from studyhall.server.http.openapi import describe


class EdgeIndex:
    """The edges touching each node, built once per edges tuple (the fold hands out the same
    tuple until an edge changes)."""

    def __init__(self) -> None:
        self._edges: tuple[SnapshotEdge, ...] | None = None
        self._by_node: dict[str, list[SnapshotEdge]] = {}

    def of(self, snapshot: GraphSnapshot, node_id: str) -> list[SnapshotEdge]:
        if self._edges is not snapshot.edges:
            by_node: dict[str, list[SnapshotEdge]] = {}
            for e in snapshot.edges:
                by_node.setdefault(e.source, []).append(e)
                if e.target != e.source:
                    by_node.setdefault(e.target, []).append(e)
            self._edges, self._by_node = snapshot.edges, by_node
        return self._by_node.get(node_id, [])


def _link(link: Linked) -> dict[str, Any]:
    return {"id": link.node.id, "text": link.node.text, "state": link.node.state,
            "relation": link.relation, "session": link.session}


def _unrecorded(source_id: str) -> Source | None:
    return None


def node_detail(snapshot: GraphSnapshot, node_id: str, edges: EdgeIndex,
                sessions: Mapping[str, str] | None = None,
                source: Callable[[str], Source | None] = _unrecorded) -> dict[str, Any]:
    """``sessions``: which source ids are sessions (chats) and their titles, so each link names
    the session it was learned in and the node the session it came from; ``source``: a source's
    record, whose sections now leave the headings a note has lost out of its outline."""
    sessions = sessions or {}
    node = snapshot.node(node_id)
    if node is None:
        raise NotFound(f"The graph has no node {node_id!r} (it may have been merged into "
                       "another since the page loaded): reload the graph.")
    out = node_head(node)
    cluster = next((c for c in snapshot.clusters if node_id in c.node_ids), None)
    out["cluster"] = None if cluster is None else cluster.id
    position = snapshot.positions.get(node_id)
    out["position"] = None if position is None else {"x": position.x, "y": position.y}
    gate = snapshot.gate(node_id)
    if gate is not None:
        out["ready"] = gate.ready
        out["blocked_by"] = [{"id": i, "score": s} for i, s in gate.blocking]
    touching = edges.of(snapshot, node_id)
    neighbours = []
    for other_id in dict.fromkeys(e.target if e.source == node_id else e.source
                                  for e in touching):
        other = snapshot.node(other_id)
        if other is not None:
            neighbours.append({"id": other.id, "text": other.text, "state": other.state})
    found = node_links(snapshot, node_id, sessions)
    origin = node.sources[0] if node.sources else None
    rolled = topic_masteries(snapshot, touching).get(node_id) or roll_up(node.state, ())
    return {
        "node": out,
        "neighbours": neighbours,
        "edges": [{"id": e.id, "from": e.source, "to": e.target, "kind": e.kind,
                   "weight": e.weight} for e in touching],
        "clusters": [] if cluster is None else [{"id": cluster.id, "label": cluster.label}],
        "links": {"builds_on": [_link(x) for x in found.builds_on],
                  "leads_to": [_link(x) for x in found.leads_to]},
        "from_session": ({"id": origin, "title": sessions[origin]}
                         if origin is not None and origin in sessions else None),
        "sections": [{"source_id": s.source_id, "message_id": s.message_id, "anchor": s.anchor,
                      "heading": s.heading, "level": s.level, "evidence": s.evidence}
                     for s in node_outline(node, node_sections_now(node, source))],
        "mastery_rollup": _rollup(rolled),
    }


def _rollup(m: TopicMastery) -> dict[str, Any]:
    return {"state": m.state, "own": m.own, "ideas": m.ideas, "tried": m.tried,
            "solid": m.solid, "shaky": m.shaky}


def detail_route(read: Callable[[], GraphSnapshot], sessions: Callable[[], Mapping[str, str]],
                 review: Callable[[str], dict[str, Any]] | None = None,
                 source: Callable[[str], Source | None] = _unrecorded,
                 ) -> Callable[[Request], Awaitable[Response]]:
    """The handler of ``GET /api/graph/nodes/{node_id}``; ``sessions`` maps chat ids to their
    titles; ``review`` gives a node's FSRS state (read-only), shown as ``review``; ``source``
    reads a source's record (its sections now)."""
    edges = EdgeIndex()
    lock = threading.Lock()

    def render(node_id: str) -> Response:
        snapshot = read()
        chats = sessions()
        with lock:
            out = node_detail(snapshot, node_id, edges, chats, source)
        if review is not None:
            out["review"] = review(node_id)
        return JSONResponse(out)

    @describe(summary="One node in full", responses={404: "No such node"})
    async def get_node(request: Request) -> Response:
        """A node as ``GET /api/graph`` shows it, the nodes it links to or from, those links,
        and what it builds on and leads to (each with the session it was learned in)."""
        return await asyncio.to_thread(render, request.path_params["node_id"])

    return get_node
