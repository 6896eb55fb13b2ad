"""Finding graph nodes for words: a concept the tutor names, a plan step's label, a session's
topic — the graph search (``core.library.graph.node_search``: literal text, plus cosine over the
node vectors already embedded) run off the event loop.

Semantic search uses only cached node vectors (a lookup never waits for the graph to embed),
and embeds the query only when its words alone found nothing close enough: the common case,
a label that is in a node's text, costs no model.
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial

from studyhall.core.contracts.search import VectorLike
from studyhall.core.errors import StudyhallError
from studyhall.core.library.graph.node_search import SearchHit, node_contents, search_nodes
from studyhall.core.library.graph.view import GraphSnapshot
from studyhall.core.library.upkeep.vector_cache import Vector
from studyhall.server.runtime.library.graph_upkeep import GraphUpkeep

log = logging.getLogger("studyhall.learner")

MATCH_AT = 0.6  # a plan step's label stands for a node this close (cosine, or literal text)
NEAR_AT = 0.3  # a node is "near" a topic at this score (the graph context's own threshold)


class NodeFinder:
    def __init__(self, upkeep: GraphUpkeep) -> None:
        self._upkeep = upkeep

    async def search(self, query: str, snapshot: GraphSnapshot, *, limit: int = 20,
                     enough: float | None = None) -> list[SearchHit]:
        """The best nodes for ``query``, best first. ``enough``: a text hit this good makes
        the semantic pass unnecessary."""
        nodes = [(n.id, n.text) for n in snapshot.nodes]
        if not nodes:
            return []
        content = node_contents(snapshot.nodes, await self._upkeep.sections_now())
        hits = await asyncio.to_thread(partial(search_nodes, content=content), query, nodes,
                                       limit=limit)
        if enough is not None and hits and hits[0].score >= enough:
            return hits
        vectors, query_vector = await self._vectors(query, snapshot)
        if query_vector is None:
            return hits
        return await asyncio.to_thread(partial(search_nodes, content=content), query, nodes,
                                       query_vector=query_vector, vectors=vectors, limit=limit)

    async def best(self, label: str, snapshot: GraphSnapshot) -> str | None:
        """The node a plan step's label stands for: the best hit at ≥ ``MATCH_AT``; among
        equally good ones the shortest text (the node most like a name), then the id."""
        hits = [h for h in await self.search(label, snapshot, limit=10, enough=MATCH_AT)
                if h.score >= MATCH_AT]
        if not hits:
            return None
        top = hits[0].score
        return min((h for h in hits if h.score >= top - 1e-9),
                   key=lambda h: (len(h.text), h.node_id)).node_id

    async def near(self, topic: str, snapshot: GraphSnapshot, limit: int = 50) -> list[str]:
        """Ids of the nodes near ``topic`` (score ≥ ``NEAR_AT``), nearest first."""
        hits = await self.search(topic, snapshot, limit=limit)
        return [h.node_id for h in hits if h.score >= NEAR_AT]

    async def _vectors(self, query: str,
                       snapshot: GraphSnapshot) -> tuple[dict[str, Vector], VectorLike | None]:
        cache = self._upkeep.cache()
        if cache is None:
            return {}, None
        try:
            vectors = await self._upkeep.node_vectors(snapshot, compute=False)
            if not vectors:
                return {}, None
            return vectors, (await cache.embedder.embed([query]))[0]
        except StudyhallError as e:
            log.warning("semantic node search unavailable, text only: %s", e)
            return {}, None
