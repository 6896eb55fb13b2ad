"""Keeping the search index in step with imported material: chunk, embed (through the
embedding cache when there is one), upsert — skipped when the source's content is unchanged."""

from __future__ import annotations

from collections.abc import Sequence

from studyhall.core.ports import Chunk, Embedder, SearchIndex

from .vectors import VectorCache


def embed_text(chunk: Chunk) -> str:
    """What the dense vector of a chunk is computed from (the heading gives it context)."""
    return f"{chunk.heading}\n{chunk.text}" if chunk.heading else chunk.text


async def index_chunks(
    index: SearchIndex, source_id: str, content_hash: str, chunks: Sequence[Chunk],
    embedder: Embedder | None = None, cache: VectorCache | None = None, force: bool = False,
) -> bool:
    """Index one source's chunks; False when it was already indexed with this content."""
    if not force and index.source_hash(source_id) == content_hash:
        return False
    if not chunks:
        index.remove(source_id)
        return True
    texts = [embed_text(c) for c in chunks]
    vectors: Sequence[Sequence[float]]
    if cache is not None:
        vectors = await cache.vectors(texts)
        model = cache.model
    elif embedder is not None:
        vectors = await embedder.embed(texts)
        model = embedder.model_id
    else:
        vectors, model = [() for _ in chunks], ""
    index.upsert(source_id, content_hash, chunks, vectors, model)
    return True
