"""The embedding cache: one vector per (model, text hash), persisted in the graph store.

A node's vector is the vector of its text, so a node re-created by another run, or the same
statement in another note, costs nothing. Vectors of one model never mix with another's (the
store keeps one file per model). Hits and misses are counted so an import can report its rate.
Vectors are held as float32 arrays (what the store keeps): a Python tuple of floats would cost
eight times the memory on a graph of tens of thousands of nodes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias, cast

from studyhall.core.errors import ModelError
from studyhall.core.ports.models import Embedder
from studyhall.core.ports.storage import GraphStore

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

# Aliases spelled as strings: numpy is imported on first use (``_f32``), not when the app starts.
Vector: TypeAlias = "npt.NDArray[np.float32]"
BATCH = 512  # texts per embedder call: big enough for the encoder to sort by length


def text_key(text: str) -> str:
    return "t_" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _f32(vector: Any) -> Vector:
    import numpy as np

    return np.asarray(vector, dtype=np.float32)


@dataclass(frozen=True)
class CacheStats:
    hits: int
    misses: int

    @property
    def hit_rate(self) -> float | None:
        total = self.hits + self.misses
        return self.hits / total if total else None


class VectorCache:
    def __init__(self, embedder: Embedder, store: GraphStore, batch: int = BATCH) -> None:
        self.embedder = embedder
        self.model = embedder.model_id
        self._store = store
        self._batch = batch
        self._vectors: dict[str, Vector] | None = None
        self._dirty = False
        self._fresh: set[str] = set()  # computed by this cache: asking again is not a "hit"
        self.hits = 0
        self.misses = 0

    def _loaded(self) -> dict[str, Vector]:
        if self._vectors is None:
            self._vectors = {
                k: _f32(v)
                for k, v in self._store.embeddings(self.model).items()
            }
        return self._vectors

    def get(self, text: str) -> Vector | None:
        return self._loaded().get(text_key(text))

    async def ensure(
        self, texts: Iterable[str], progress: Callable[[int, int], None] | None = None
    ) -> int:
        """Embed every text not cached yet (in batches); returns how many were computed.
        ``progress(done, total)`` follows the texts being embedded."""
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
        keys = list(missing)
        for start in range(0, len(keys), self._batch):
            chunk = keys[start : start + self._batch]
            embedded = await self.embedder.embed([missing[k] for k in chunk])
            if len(embedded) != len(chunk):
                raise ModelError(
                    f"The embedding model {self.model} returned {len(embedded)} vectors for "
                    f"{len(chunk)} texts; pick another embedding model in Settings.",
                    role="embedding",
                )
            for key, vector in zip(chunk, embedded):
                vectors[key] = _f32(vector)
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

    def save(self) -> bool:
        """Persist new vectors (one whole-file write); False when nothing changed."""
        if not self._dirty or self._vectors is None:
            return False
        # Another cache of the same model (the material import has one) may have saved since
        # this one loaded: fold its vectors in rather than writing over them.
        for key, vector in self._store.embeddings(self.model).items():
            if key not in self._vectors:
                self._vectors[key] = _f32(vector)
        # Arrays iterate as floats, which is all the store reads from each vector.
        self._store.save_embeddings(self.model, cast(Mapping[str, Sequence[float]], self._vectors))
        self._dirty = False
        return True

    @property
    def stats(self) -> CacheStats:
        return CacheStats(self.hits, self.misses)
