"""Keeping the search index in step with imported material: chunk, embed (through the
embedding cache when there is one), upsert — skipped when the source's content is unchanged.

Many sources are indexed together so their chunks are embedded in one pass:
texts deduplicated, cached by content hash, and sent to the encoder in big batches sorted by
length (a per-file call would pad a short chunk to its longest neighbour, a few texts a call).
The two halves (``embed_sources``, ``write_sources``) let an import embed one window of files
while it reads the next and writes the last.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from studyhall.core.contracts.search import Chunk, Matrix, VectorLike
from studyhall.core.library.upkeep.vector_cache import VectorCache, as_matrix
from studyhall.core.ports.models import Embedder
from studyhall.core.ports.search import SearchIndex
from studyhall.core.ports.system import OffLoop, in_place


def embed_text(chunk: Chunk) -> str:
    """What the dense vector of a chunk is computed from (the heading gives it context)."""
    return f"{chunk.heading}\n{chunk.text}" if chunk.heading else chunk.text


@dataclass(frozen=True)
class SourceChunks:
    """One source's chunks, to be indexed from this content."""

    source_id: str
    content_hash: str
    chunks: Sequence[Chunk]


def _model(embedder: Embedder | None, cache: VectorCache | None) -> str:
    return cache.model if cache is not None else embedder.model_id if embedder is not None else ""


def indexed_key(source: SourceChunks, embedder: Embedder | None = None,
                cache: VectorCache | None = None, *, model: str | None = None) -> str:
    """What the index holds a source as once indexed from this content with this model."""
    return f"{source.content_hash}|{_model(embedder, cache) if model is None else model}"


@dataclass(frozen=True)
class EmbeddedSources:
    """Sources whose chunks are embedded (or need no vectors), ready to be written."""

    sources: Sequence[SourceChunks]
    model: str
    texts: Sequence[str]
    matrix: Matrix | None  # the vectors when there is no cache (the cache holds them otherwise)


async def embed_sources(
    sources: Sequence[SourceChunks], embedder: Embedder | None = None,
    cache: VectorCache | None = None,
) -> EmbeddedSources:
    """Every source's chunks embedded in one pass (deduplicated and cached when there is a
    cache); nothing to embed without an embedder."""
    texts = [embed_text(c) for s in sources for c in s.chunks]
    matrix: Matrix | None = None
    if cache is not None:
        await cache.ensure(texts)
    elif embedder is not None and texts:
        matrix = as_matrix(await embedder.embed(texts), len(texts), _model(embedder, None))
    return EmbeddedSources(sources, _model(embedder, cache), texts, matrix)


async def write_sources(
    index: SearchIndex, embedded: EmbeddedSources, cache: VectorCache | None = None,
    off_loop: OffLoop = in_place,
) -> None:
    """Write embedded sources to the index (a source with no chunks leaves it), through
    ``off_loop``."""
    start = 0
    for source in embedded.sources:
        if not source.chunks:
            await off_loop(index.remove, source.source_id)
            continue
        count = len(source.chunks)
        vectors: Sequence[VectorLike] | Matrix
        if cache is not None:
            vectors = cache.matrix(embedded.texts[start : start + count])
        elif embedded.matrix is not None:
            vectors = embedded.matrix[start : start + count]
        else:
            vectors = [() for _ in source.chunks]
        start += count
        await off_loop(index.upsert, source.source_id, indexed_key(source, model=embedded.model),
                       source.chunks, vectors, embedded.model)
