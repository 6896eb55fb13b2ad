"""The search index over imported material (BM25 + dense), kept in step by imports."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from studyhall.core.contracts.search import Candidate, Chunk, Matrix, VectorLike


class SearchIndex(Protocol):
    """Lexical + vector index over chunks; persisted by the adapter, updated per source."""

    def source_hash(self, source_id: str) -> str | None:
        """The content hash the source was indexed with (``None`` if it is not indexed)."""
        ...

    def upsert(
        self, source_id: str, content_hash: str, chunks: Sequence[Chunk],
        vectors: Sequence[VectorLike] | Matrix, model_id: str,
    ) -> None:
        """Replace every chunk of ``source_id`` (one vector per chunk, same order)."""
        ...

    def remove(self, source_id: str) -> None: ...

    def chunks(self, source_id: str) -> list[Chunk]:
        """The source's chunks in reading order (``[]`` if it is not indexed)."""
        ...

    def candidates(
        self, query: str, vector: VectorLike | None, *, limit: int,
        source_id: str | None = None, model_id: str | None = None,
    ) -> list[Candidate]:
        """The union of the best lexical and dense hits, scoped to one source when given.
        ``model_id`` names the model that made ``vector``: when it is not ``vector_model()``
        the vector is ignored (lexical hits only), so incompatible vectors are never compared."""
        ...

    def source_model(self, source_id: str) -> str | None:
        """The embedding model of the source's chunk vectors ("" when its chunks have none,
        ``None`` when the source is not indexed)."""
        ...

    def size(self) -> int:
        """How many chunks are indexed."""
        ...

    def vector_model(self) -> str:
        """The embedding model whose chunk vectors a query vector is compared with ("" when no
        chunk has a vector). Sources embedded by another model count as no dense match."""
        ...

    def vector_models(self) -> dict[str, int]:
        """How many indexed chunks carry vectors of each embedding model."""
        ...

    def likely_typos(self, query: str) -> list[str]:
        """Words of ``query`` that no chunk contains but that are one edit away from a word
        some chunk contains: probably misspelt (a rewrite may fix them)."""
        ...
