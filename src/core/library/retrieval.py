"""Hybrid retrieval: first-stage candidates (BM25 + dense + term coverage) fused by z-scores,
a local late-interaction rerank of the best few, an optional model reranker that grades, and
the coverage case that says what may be cited.

Why z-score fusion and not RRF: on the dev set it keeps how far apart the scores are (a passage
far ahead on one signal stays ahead), where RRF keeps only ranks — measured in
``eval/retrieval/v1/README.md``. Every step runs in code on every question; the model never
decides whether to search.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from studyhall.core.errors import ModelError, StudyhallError
from studyhall.core.ports import Candidate, Chunk, Embedder, Reranker, RerankGrade, SearchIndex

from .chunking import Position, chunk_at
from .coverage_cases import (
    CALIBRATION,
    Calibration,
    Case,
    decide_by_grades,
    decide_by_scores,
    is_about_here,
    navigation_target,
    suggestions,
    wants_navigation,
)

FIRST_STAGE = ("bm25", "dense", "coverage")
RERANK_DEPTH = 12  # the local late-interaction scorer re-scores this many fused hits
GRADE_DEPTH = 6  # a model reranker grades this many


@dataclass(frozen=True)
class Hit:
    chunk: Chunk
    score: float
    signals: Mapping[str, float]
    grade: RerankGrade | None = None


@dataclass(frozen=True)
class Retrieval:
    question: str
    case: Case
    hits: tuple[Hit, ...]  # ranked, best first
    cited: tuple[Hit, ...]  # what the answer may cite (empty for NO_MATCH)
    suggest: tuple[Chunk, ...] = ()  # at most two moments/pages to jump to
    navigate: Chunk | None = None  # set only when the learner asked to be taken somewhere
    moment: Chunk | None = None  # the chunk on screen, for IN_MOMENT
    graded: bool = False
    grade_error: str | None = None  # why the model reranker could not grade (scores decided)

    def ranked_links(self) -> list[str]:
        seen: dict[str, None] = {}
        for hit in self.hits:
            seen.setdefault(hit.chunk.link, None)
        return list(seen)


def _z(values: Sequence[float]) -> list[float]:
    n = len(values)
    if n == 0:
        return []
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / n)
    return [0.0 if sd < 1e-9 else (v - mean) / sd for v in values]


def fuse(candidates: Sequence[Candidate], signals: Sequence[str] = FIRST_STAGE) -> list[Hit]:
    """Equal-weight sum of per-signal z-scores over the candidate pool, best first."""
    total = [0.0] * len(candidates)
    for name in signals:
        present = [c.signals.get(name) for c in candidates]
        if any(v is None for v in present):
            continue  # e.g. no dense signal when no embedder is configured
        for i, z in enumerate(_z([float(v) for v in present if v is not None])):
            total[i] += z
    hits = [Hit(c.chunk, s, dict(c.signals)) for c, s in zip(candidates, total)]
    hits.sort(key=lambda h: (-h.score, h.chunk.id))
    return hits


def rerank(hits: Sequence[Hit], scores: Mapping[str, float], depth: int = RERANK_DEPTH,
           weight: float = 1.0) -> list[Hit]:
    """Re-order the top ``depth`` hits by fused z + ``weight`` x late-interaction z."""
    head = [h for h in hits[:depth] if h.chunk.id in scores]
    if len(head) < 2:
        return list(hits)
    fused = _z([h.score for h in head])
    late = _z([scores[h.chunk.id] for h in head])
    rescored = [
        replace(h, score=f + weight * s, signals={**h.signals, "late": scores[h.chunk.id]})
        for h, f, s in zip(head, fused, late)
    ]
    rescored.sort(key=lambda h: (-h.score, h.chunk.id))
    rest = [h for h in hits if h.chunk.id not in {r.chunk.id for r in rescored}]
    return rescored + rest


@dataclass
class Retriever:
    """The retrieval pipeline over ports; ``scorer`` is the local reranker, ``grader`` a model."""

    index: SearchIndex
    embedder: Embedder | None = None
    scorer: Reranker | None = None
    grader: Reranker | None = None
    calibration: Calibration = field(default=CALIBRATION)
    limit: int = 10
    grade_error: str | None = None

    async def search(self, query: str, source_id: str | None = None) -> list[Hit]:
        vector = None
        if self.embedder is not None:
            try:
                vector = (await self.embedder.embed([query]))[0]
            except StudyhallError:
                vector = None  # the embedder is unavailable: words alone still find passages
        pool = self.index.candidates(query, vector, limit=self.limit, source_id=source_id)
        hits = fuse(pool)
        if self.scorer is not None and hits:
            head = [h.chunk for h in hits[:RERANK_DEPTH]]
            try:
                judged = await self.scorer.rerank(query, head)
                hits = rerank(hits, {r.chunk_id: r.score for r in judged})
            except StudyhallError:
                pass  # no local scorer (a broken install): the fused order stands
        return hits[: max(self.limit, RERANK_DEPTH)]

    async def _decide(self, question: str, hits: list[Hit]) -> tuple[Case, list[Hit], tuple[Hit, ...], bool]:
        if self.grader is not None and hits:
            head = hits[:GRADE_DEPTH]
            try:
                judged = await self.grader.rerank(question, [h.chunk for h in head])
            except ModelError as e:
                # No model (or it failed): the calibrated scores decide instead.
                self.grade_error = str(e)
                self.grader = None
                return await self._decide(question, hits)
            graded = [replace(h, grade=j.grade) for h, j in zip(head, judged)]
            hits = graded + hits[GRADE_DEPTH:]
            decision = decide_by_grades([h.grade for h in graded])
            return decision.case, hits, tuple(graded[i] for i in decision.cited), True
        decision = decide_by_scores([h.signals for h in hits], self.calibration)
        return decision.case, hits, tuple(hits[i] for i in decision.cited), False

    async def retrieve(self, question: str, position: Position | None = None) -> Retrieval:
        navigate = wants_navigation(question)
        query = navigation_target(question) if navigate else question
        if position is not None:
            inside = await self._inside(question, query, position, navigate)
            if inside is not None:
                return inside
        hits = await self.search(query)
        case, hits, cited, graded = await self._decide(query, hits)
        chunks = [h.chunk for h in cited]
        return Retrieval(
            question, case, tuple(hits), cited, suggest=() if navigate else suggestions(chunks),
            navigate=chunks[0] if navigate and chunks and chunks[0].anchor else None, graded=graded,
            grade_error=self.grade_error,
        )

    async def _inside(self, question: str, query: str, position: Position, navigate: bool) -> Retrieval | None:
        """IN_MOMENT for a "this" question at a position; IN_SOURCE when the source answers."""
        here = chunk_at(self.index.chunks(position.source_id), position)
        if here is not None and not navigate and is_about_here(question):
            # Look for other moments about what is on screen, to suggest (never to jump to).
            related = await self.search(f"{question} {here.text}", source_id=position.source_id)
            others = suggestions([h.chunk for h in related], current=here)
            hit = Hit(here, 0.0, {})
            return Retrieval(question, "IN_MOMENT", (hit,), (hit,), suggest=others, moment=here)
        hits = await self.search(query, source_id=position.source_id)
        case, hits, cited, graded = await self._decide(query, hits)
        if case == "NO_MATCH":
            return None  # the source does not cover it: fall back to everything
        chunks = [h.chunk for h in cited]
        return Retrieval(
            question, "IN_SOURCE", tuple(hits), cited,
            suggest=() if navigate else suggestions(chunks, current=here),
            navigate=chunks[0] if navigate and chunks and chunks[0].anchor else None,
            moment=here, graded=graded,
        )
