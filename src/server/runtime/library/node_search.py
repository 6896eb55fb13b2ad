"""Finding a proposition on Home by meaning and by its words, and keeping the positions the
learner dragged: the two graph-adjacent use cases beside the derived read."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from studyhall.core.contracts.graph import Position
from studyhall.core.errors import StudyhallError
from studyhall.core.library.graph.node_search import node_contents, search_nodes
from studyhall.core.library.upkeep.vector_cache import Vector
from studyhall.server.runtime.library.graph_upkeep import GraphUpkeep

log = logging.getLogger("studyhall.library")


async def search_graph(upkeep: GraphUpkeep, text: str, limit: int) -> dict[str, Any]:
    """Cosine similarity over the nodes' cached vectors fused with literal text matches; text
    alone when there are no vectors (a search never waits for the whole graph to embed)."""
    # Off the event loop: the first read of a large graph folds it (seconds).
    snapshot = await asyncio.to_thread(upkeep.snapshot)
    nodes = [(n.id, n.text) for n in snapshot.nodes]
    query_vector = None
    vectors: dict[str, Vector] = {}
    cache = upkeep.cache()
    if cache is not None and nodes:
        try:
            vectors = await upkeep.node_vectors(snapshot, compute=False)
            if vectors:
                query_vector = (await cache.embedder.embed([text]))[0]
        except StudyhallError as e:
            log.warning("[graph] semantic search unavailable, text only: %s", e)
            vectors, query_vector = {}, None
    now = await upkeep.sections_now()
    hits = await asyncio.to_thread(lambda: search_nodes(  # off the loop: 10k nodes' quotes
        text, nodes, query_vector=query_vector, vectors=vectors,
        content=node_contents(snapshot.nodes, now), limit=limit))
    return {
        "query": text,
        "semantic": query_vector is not None,
        "results": [{"id": h.node_id, "text": h.text, "score": h.score, "match": h.match}
                    for h in hits],
    }


async def keep_positions(upkeep: GraphUpkeep, positions: dict[str, Position]) -> dict[str, int]:
    """Store the dragged positions of nodes that exist (one that no longer does, or never did,
    is not stored) and place every node that has none yet (the layout's warm start keeps
    everything else where it is)."""
    snapshot = await asyncio.to_thread(upkeep.snapshot)
    known = {n.id for n in snapshot.nodes}
    pinned = {node_id: at for node_id, at in positions.items() if node_id in known}
    placed = await upkeep.settle(snapshot, pinned=pinned)
    return {"saved": len(pinned), "placed": placed}
