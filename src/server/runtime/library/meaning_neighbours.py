"""Nodes a session's finding may be about by meaning, not only by shared words: the nearest node
vectors already embedded (the graph's upkeep embeds every merged node), as a
``NeighbourFinder``, so a finding worded unlike its topic still gets it as a candidate; the
placement's calibrated minimum still decides (``core/library/extraction/finding_placement.py``).

One matrix product per batch over the cached vectors, made in a worker thread and not kept (a
batch is a few thousand tokens of a session: rare, while a kept copy of every vector would cost
the app its size in memory); only the findings are embedded, never a node.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from studyhall.core.errors import StudyhallError
from studyhall.core.library.extraction.findings import NodeRef
from studyhall.core.library.graph.snapshot import GraphSnapshot
from studyhall.server.runtime.library.graph_upkeep import GraphUpkeep

log = logging.getLogger("studyhall.extraction")


class MeaningNeighbours:
    def __init__(self, upkeep: GraphUpkeep, snapshot: Callable[[], GraphSnapshot]) -> None:
        self._upkeep, self._snapshot = upkeep, snapshot

    async def nearest(self, texts: Sequence[str], k: int) -> list[list[NodeRef]]:
        cache = self._upkeep.cache()
        if cache is None or not texts:
            return [[] for _ in texts]
        try:
            await cache.load()  # a first read of the vectors file, off the event loop
            snapshot = self._snapshot()
            vectors = await self._upkeep.node_vectors(snapshot, compute=False)
            if not vectors:
                return [[] for _ in texts]
            queries = await cache.embedder.embed(list(texts))
        except StudyhallError as e:
            log.info("[extraction] no candidates by meaning (%s); words only", e)
            return [[] for _ in texts]
        refs = [NodeRef(n.id, n.text) for n in snapshot.nodes if n.id in vectors]
        return await asyncio.to_thread(_top, refs, vectors, queries, k)


def _top(refs: list[NodeRef], vectors: Mapping[str, Any], queries: Any,
         k: int) -> list[list[NodeRef]]:
    import numpy as np

    matrix = np.stack([np.asarray(vectors[r.id], dtype=np.float32) for r in refs])
    scores = np.asarray(queries, dtype=np.float32) @ matrix.T
    k = min(k, len(refs))
    top = np.argpartition(-scores, k - 1, axis=1)[:, :k]
    out: list[list[NodeRef]] = []
    for row, row_scores in zip(top, scores, strict=True):
        best_first = row[np.argsort(-row_scores[row], kind="stable")]
        out.append([refs[int(j)] for j in best_first])
    return out
