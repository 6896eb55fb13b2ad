"""Keeping the search index in step with imported material: chunk, embed (through the
embedding cache when there is one), upsert — skipped when the source's content is unchanged."""

from __future__ import annotations

from collections.abc import Sequence

from studyhall.core.contracts.search import Chunk, VectorLike
from studyhall.core.library.upkeep.vector_cache import VectorCache
from studyhall.core.ports.models import Embedder
from studyhall.core.ports.search import SearchIndex
from studyhall.core.ports.system import OffLoop, in_place


def embed_text(chunk: Chunk) -> str:
    """What the dense vector of a chunk is computed from (the heading gives it context)."""
    return f"{chunk.heading}\n{chunk.text}" if chunk.heading else chunk.text


async def index_chunks(
    index: SearchIndex, source_id: str, content_hash: str, chunks: Sequence[Chunk],
    embedder: Embedder | None = None, cache: VectorCache | None = None, force: bool = False,
    off_loop: OffLoop = in_place,
) -> bool:
    """Index one source's chunks; False when it was already indexed from this content with this
    embedding model (a changed model re-embeds, so one index never mixes two models). The
    index's reads and writes (files, in the app) run through ``off_loop``."""
    model = cache.model if cache is not None else embedder.model_id if embedder is not None else ""
    key = f"{content_hash}|{model}"
    if not force and await off_loop(index.source_hash, source_id) == key:
        return False
    if not chunks:
        await off_loop(index.remove, source_id)
        return True
    texts = [embed_text(c) for c in chunks]
    vectors: Sequence[VectorLike]
    if cache is not None:
        vectors = await cache.vectors(texts)
    elif embedder is not None:
        vectors = await embedder.embed(texts)
    else:
        vectors = [() for _ in chunks]
    await off_loop(index.upsert, source_id, key, chunks, vectors, model)
    return True
