"""Passages in the search index, first-stage candidates and rerank grades."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from studyhall.core.contracts.material import MaterialKind

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

# Aliases spelled as strings so numpy is not imported when the app starts.
# One vector as the core hands it on: a float32 row of a matrix, or a plain sequence (tests).
VectorLike: TypeAlias = "Sequence[float] | npt.NDArray[Any]"
# One vector as a store or cache holds it: a float32 row (often a view into a Matrix).
Vector: TypeAlias = "npt.NDArray[np.float32]"
# Many vectors: one float32 row per text, one 2-D array per batch (never per-float objects).
Matrix: TypeAlias = "npt.NDArray[np.float32]"


@dataclass(frozen=True)
class Chunk:
    """A retrievable passage, addressable by ``link`` (``path``, ``path#t=754``, ``path#page=12``,
    ``path#heading-slug``). ``sentences`` are the units coverage features are computed over."""

    id: str  # "<source_id>:<ordinal>"
    source_id: str
    path: str
    kind: MaterialKind
    title: str
    anchor: str  # "" (whole file), "t=754", "page=12" or a heading slug
    text: str
    heading: str | None = None
    start: float | None = None
    end: float | None = None
    page: int | None = None
    sentences: tuple[str, ...] = ()
    # A transcript window's cues: (where the cue's words begin in ``text``, its start second),
    # so a sentence inside the window has its own moment. Empty for other kinds (and for a
    # window indexed before cues were kept: its words then have only the window's start).
    cues: tuple[tuple[int, float], ...] = ()

    @property
    def link(self) -> str:
        return f"{self.path}#{self.anchor}" if self.anchor else self.path


@dataclass(frozen=True)
class Candidate:
    """A chunk the first stage found, with raw per-signal scores (higher is better).

    Signals: ``bm25`` (lexical, title/heading included), ``dense`` (cosine of query and chunk
    vectors), ``coverage`` (IDF share of the query's terms found in one sentence of the chunk).
    """

    chunk: Chunk
    signals: Mapping[str, float]


RerankGrade = Literal["answers", "partial", "related", "no"]


@dataclass(frozen=True)
class Reranked:
    """A reranker's judgement of one candidate: a score (higher is better) and, from a model
    reranker, a grade. A score-only reranker leaves ``grade`` as ``None``."""

    chunk_id: str
    score: float
    grade: RerankGrade | None = None
