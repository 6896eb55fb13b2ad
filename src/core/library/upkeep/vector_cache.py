"""The embedding cache: one vector per (model, text hash), persisted in the graph store.

A node's vector is the vector of its text, so a node re-created by another run, or the same
statement in another note, costs nothing. Vectors of one model never mix with another's (the
store keeps one file per model). Hits and misses are counted so an import can report its rate.
Vectors are float32 numpy rows (one matrix per embedded batch, as the store hands them back):
a Python tuple of floats would cost eight times the memory on a graph of tens of thousands of
nodes. Missing texts are embedded deduplicated and sorted by length, so a batch pads little.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from studyhall.core.contracts.search import Vector
from studyhall.core.errors import ModelError
from studyhall.core.ports.models import Embedder
from studyhall.core.ports.storage import GraphStore
from studyhall.core.ports.system import OffLoop, in_place

if TYPE_CHECKING:
    from studyhall.core.contracts.search import Matrix

# ``Vector`` is re-exported: the runtime names the cache's vectors through this module.
__all__ = ["BATCH", "CacheStats", "Vector", "VectorCache", "as_matrix", "text_key"]
BATCH = 128  # texts per embedder call: enough for the encoder to batch well, and the import
# progress moves every second or two on a busy 2-core machine (at 512 it jumped every ~5-10 s)


def text_key(text: str) -> str:
    return "t_" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def as_matrix(vectors: Any, count: int, model: str) -> Matrix:
    """An embedder's answer as one float32 matrix with ``count`` rows (no copy when it already
    is one), or ``ModelError`` saying what came back instead."""
    import numpy as np

    try:
        matrix = np.asarray(vectors, dtype=np.float32)
    except (TypeError, ValueError) as e:
        raise ModelError(
            f"The embedding model {model} returned vectors that are not lists of numbers of one "
            "length; set another embedding model (\"embedding\" in settings.json).",
            role="embedding") from e
    if matrix.ndim != 2 or len(matrix) != count:
        raise ModelError(
            f"The embedding model {model} returned {len(matrix) if matrix.ndim else 0} vectors "
            f"for {count} texts; set another embedding model (\"embedding\" in settings.json).",
            role="embedding")
    return matrix


@dataclass(frozen=True)
class CacheStats:
    hits: int
    misses: int

    @property
    def hit_rate(self) -> float | None:
        total = self.hits + self.misses
        return self.hits / total if total else None


class VectorCache:
    def __init__(self, embedder: Embedder, store: GraphStore, batch: int = BATCH,
                 off_loop: OffLoop = in_place) -> None:
        self.embedder = embedder
        self.model = embedder.model_id
        self._store = store
        self._batch = batch
        self._off_loop = off_loop  # reads and writes of the store (a thread, in the app)
        # Changed on the event loop only (an import embeds one window while it reads the
        # next, and the graph's upkeep shares the cache); store reads and writes run off it.
        self._vectors: dict[str, Vector] | None = None
        self._saving = asyncio.Lock()  # whole-file writes in the order their copies were taken
        self._dirty = False
        self._fresh: set[str] = set()  # computed by this cache: asking again is not a "hit"
        self.hits = 0
        self.misses = 0

    def _loaded(self) -> dict[str, Vector]:
        if self._vectors is None:
            self._vectors = dict(self._store.embeddings(self.model))
        return self._vectors

    async def load(self) -> None:
        """Read the model's vectors from the store, off the loop, unless already read. Two
        first looks at once may both read; the first answer is kept (set on the loop)."""
        if self._vectors is None:
            vectors = await self._off_loop(self._store.embeddings, self.model)
            if self._vectors is None:
                self._vectors = dict(vectors)

    def get(self, text: str) -> Vector | None:
        return self._loaded().get(text_key(text))

    async def ensure(
        self, texts: Iterable[str], progress: Callable[[int, int], None] | None = None
    ) -> int:
        """Embed every text not cached yet (in batches); returns how many were computed.
        ``progress(done, total)`` follows the texts being embedded."""
        await self.load()
        vectors = self._loaded()
        missing: dict[str, str] = {}
        for text in texts:
            key = text_key(text)
            if key in missing or key in self._fresh:
                continue
            if key in vectors:
                self.hits += 1
            else:
                missing[key] = text
        # Longest first, so every batch holds texts of about one length (little padding) and
        # progress is conservative; characters stand in for tokens.
        keys = sorted(missing, key=lambda k: -len(missing[k]))
        for start in range(0, len(keys), self._batch):
            chunk = keys[start : start + self._batch]
            embedded = as_matrix(
                await self.embedder.embed([missing[k] for k in chunk]), len(chunk), self.model
            )
            for key, row in zip(chunk, embedded):
                vectors[key] = row  # a view: the batch matrix is the only copy
                self._fresh.add(key)
            self.misses += len(chunk)
            self._dirty = True
            if progress is not None:
                progress(start + len(chunk), len(keys))
        return len(keys)

    async def vectors(self, texts: Sequence[str]) -> list[Vector]:
        await self.ensure(texts)
        vectors = self._loaded()
        return [vectors[text_key(t)] for t in texts]

    def matrix(self, texts: Sequence[str]) -> Matrix:
        """The cached vectors of ``texts`` (all cached: ``ensure`` them first) as one matrix."""
        import numpy as np

        vectors = self._loaded()
        return np.stack([vectors[text_key(t)] for t in texts])

    async def persist(self) -> bool:
        """Persist new vectors (one whole-file write); False when nothing changed. The copy is
        taken on the loop (where vectors are added) and written off it, one write at a time, in
        order, so an older copy never lands last."""
        async with self._saving:
            if not self._dirty or self._vectors is None:
                return False
            self._dirty = False  # a vector added from here on sets it again
            try:
                await self._off_loop(self._write, dict(self._vectors))
            except BaseException:
                self._dirty = True  # not written: the next save tries again
                raise
            return True

    def _write(self, vectors: dict[str, Vector]) -> None:
        # Another cache of the same model (a second app on the folder) may have saved since
        # this one loaded: fold its vectors in rather than writing over them.
        for key, vector in self._store.embeddings(self.model).items():
            vectors.setdefault(key, vector)
        self._store.save_embeddings(self.model, vectors)

    @property
    def stats(self) -> CacheStats:
        return CacheStats(self.hits, self.misses)
