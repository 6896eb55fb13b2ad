"""``HashEmbedder``: the one test ``Embedder`` — hashed bag-of-words vectors, no model to load.

Texts that share words land close together (so retrieval ranks and clusters form); every call
is recorded (``batches``), and a test may hold calls at a ``gate`` to act mid-embedding.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
from collections.abc import Sequence

from studyhall.core.errors import StudyhallError

DIMS = 64
_WORD = re.compile(r"[a-z0-9]+")


def hash_vector(text: str, dims: int = DIMS) -> tuple[float, ...]:
    """Unit length, deterministic across runs; a text without words gets the first axis."""
    v = [0.0] * dims
    for word in _WORD.findall(text.lower()):
        v[int(hashlib.md5(word.encode()).hexdigest(), 16) % dims] += 1.0
    norm = math.sqrt(sum(x * x for x in v))
    if not norm:
        return (1.0,) + (0.0,) * (dims - 1)
    return tuple(x / norm for x in v)


class HashEmbedder:
    """Deterministic vectors; ``model_id`` names the vector space (change it to get "another
    model" whose vectors must not be compared with these)."""

    def __init__(self, model_id: str = "test/hash-64", *, gate: asyncio.Event | None = None) -> None:
        self.model_id = model_id
        self.gate = gate  # when set, each call waits for it before answering
        self.batches: list[list[str]] = []

    @property
    def calls(self) -> int:
        return len(self.batches)

    @property
    def texts(self) -> int:
        """How many texts were embedded, over all calls."""
        return sum(len(b) for b in self.batches)

    @property
    def seen(self) -> list[str]:
        """Every text embedded, in order."""
        return [t for b in self.batches for t in b]

    async def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        self.batches.append(list(texts))
        if self.gate is not None:
            await self.gate.wait()
        return [hash_vector(t) for t in texts]


class UnloadableEmbedder:
    """The app's embedder when no embedding model can load (an app always has one wired): the
    graph's search and context fall back to text, as they do without vectors."""

    @property
    def model_id(self) -> str:
        raise StudyhallError("No embedding model can load here.")

    async def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        raise StudyhallError("No embedding model can load here.")
