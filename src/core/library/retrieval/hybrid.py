"""Hybrid retrieval: first-stage candidates (BM25 + dense + term coverage) fused by z-scores,
a local late-interaction rerank of the best few, an optional model reranker that grades, and
the coverage case that says what may be cited. With a model, a follow-up question is also
searched as a standalone rewrite (``rewriting.py`` decides when); with none, never.

One ``Retriever`` serves every caller at once (Ask, the tutor's material tool, a sub-agent's
grounding, the eval): what one question learns — its grader failed — lives in that call
(``_Grading``), never on the retriever. ``use_model=False`` runs the same pipeline without
the model's two steps (grading, rewriting).

Why z-score fusion and not RRF: on the dev set it keeps how far apart the scores are (a passage
far ahead on one signal stays ahead), where RRF keeps only ranks — measured in
``eval/retrieval/v1/README.md``. Every step runs in code on every question; the model never
decides whether to search.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from studyhall.core.contracts.search import Candidate, Chunk, RerankGrade
from studyhall.core.errors import ModelError, ModelNotConfigured, ModelOutputInvalid, StudyhallError
from studyhall.core.library.retrieval.chunking import SourcePlace, chunk_at
from studyhall.core.library.retrieval.definitions import defining_hits
from studyhall.core.library.retrieval.match_cases import (
    CALIBRATION,
    Calibration,
    Case,
    decide_by_grades,
    decide_by_scores,
    is_about_here,
    is_far,
    navigation_target,
    suggestions,
    wants_navigation,
)
from studyhall.core.library.retrieval.rewriting import (
    QueryRewriter,
    Reason,
    Turn,
    interleave,
    recent,
    rewrite_reason,
)
from studyhall.core.ports.models import Embedder, Reranker
from studyhall.core.ports.search import SearchIndex

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
class Notice:
    """Something the learner should know about how this search ran, and what to do about it."""

    kind: str  # "reindex" (vectors of another embedding model) or "grader" (reranker failed)
    message: str


@dataclass(frozen=True)
class Rewrite:
    """The question as searched: as asked, plus a model's standalone rewrite when it needed one."""

    query: str
    text: str | None = None  # the rewrite, when one was made and used
    reason: Reason | None = None  # why the rule asked for one
    error: str | None = None  # why the model's rewrite could not be used (logged)

    @property
    def queries(self) -> tuple[str, ...]:
        return (self.text, self.query) if self.text else (self.query,)

    @property
    def for_grading(self) -> str:
        # The grader sees both: the rewrite resolves "it", the original keeps the learner's words.
        return f"{self.query}\n(In this conversation that means: {self.text})" if self.text else self.query


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
    rewrite: Rewrite | None = None
    notices: tuple[Notice, ...] = ()
    # NO_MATCH by scores alone while the best hit is near the question: whether the material
    # answers it is unknown without a model (``match_cases.is_far``), not "not covered".
    unconfirmed: bool = False

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


def _grade_notice(error: ModelError) -> str:
    # A provider failure says what to do itself; a malformed answer needs another model.
    advice = ("If this keeps happening, pick a model that supports JSON output for 'reranker' in "
              "Settings → Advanced → Models." if isinstance(error, ModelOutputInvalid) else str(error))
    return ("The reranker model could not grade the passages, so the coverage case comes from "
            f"retrieval scores, which cite only passages that clearly answer. {advice}")


@dataclass
class _Grading:
    """One question's grading: the grader until it fails, then why it failed (the calibrated
    scores decide the rest of that question)."""

    grader: Reranker | None
    error: str | None = None
    notice: str | None = None  # what the learner is told when grading failed


@dataclass(frozen=True)
class Retriever:
    """The retrieval pipeline over ports: ``scorer`` is the local reranker, ``grader`` a model
    that grades, ``rewriter`` a model that makes follow-up questions standalone."""

    index: SearchIndex
    embedder: Embedder | None = None
    scorer: Reranker | None = None
    grader: Reranker | None = None
    rewriter: QueryRewriter | None = None
    calibration: Calibration = field(default=CALIBRATION)
    limit: int = 10

    def dense_model(self) -> tuple[str | None, Notice | None]:
        """The model whose query vectors may be compared with the index's (``None``: words
        only), and a notice when the index was embedded by another model than the current one."""
        if self.embedder is None:
            return None, None
        try:
            current = self.embedder.model_id
        except StudyhallError:
            return None, None  # settings unreadable: words alone still find passages
        counts = self.index.vector_models()
        indexed = self.index.vector_model()
        if not indexed:
            return None, None  # nothing has vectors: nothing to compare
        if indexed != current:
            return None, Notice("reindex", (
                f"Your material was indexed with the embedding model '{indexed}', but Studyhall "
                f"now embeds with '{current}', so this search skipped vector matching and "
                "relied on words (vectors of two models cannot be compared). Re-import your material (studyhall import PATH, "
                "or Import in the app) to index it with the current model."))
        stale = sum(n for m, n in counts.items() if m != current)
        if stale:
            return current, Notice("reindex", (
                f"{stale} passage{'s' if stale != 1 else ''} of your material "
                f"{'were' if stale != 1 else 'was'} indexed with another embedding model and "
                "left out of vector matching. Re-import that material to index it with "
                f"'{current}'."))
        return current, None

    async def search(self, query: str, source_id: str | None = None) -> list[Hit]:
        model, _ = self.dense_model()
        vector = None
        if model is not None and self.embedder is not None:
            try:
                vector = (await self.embedder.embed([query]))[0]
            except StudyhallError:
                vector = None  # the embedder is unavailable: words alone still find passages
        pool = self.index.candidates(query, vector, limit=self.limit, source_id=source_id,
                                     model_id=model)
        hits = fuse(pool)
        if self.scorer is not None and hits:
            head = [h.chunk for h in hits[:RERANK_DEPTH]]
            try:
                judged = await self.scorer.rerank(query, head)
                hits = rerank(hits, {r.chunk_id: r.score for r in judged})
            except StudyhallError:
                pass  # no local scorer (a broken install): the fused order stands
        return hits[: max(self.limit, RERANK_DEPTH)]

    async def search_all(self, queries: Sequence[str], source_id: str | None = None) -> list[Hit]:
        """One search per query, merged by ``interleave`` (the first query leads)."""
        if len(queries) == 1:
            return await self.search(queries[0], source_id)
        rankings = [await self.search(q, source_id) for q in queries]
        by_id: dict[str, Hit] = {}
        for hits in rankings:
            for hit in hits:
                by_id.setdefault(hit.chunk.id, hit)
        order = [h.chunk.id for h in rankings[0]]
        for hits in rankings[1:]:
            order = interleave(order, [h.chunk.id for h in hits])
        return [by_id[i] for i in order]

    async def rewritten(self, query: str, history: Sequence[Turn], here: Chunk | None,
                        *, use_model: bool = True) -> Rewrite:
        """The query as searched: rewritten only when the rule asks and a model answers well."""
        if self.rewriter is None or not use_model:
            return Rewrite(query)
        reason = rewrite_reason(query, history=history, on_screen=here is not None,
                                spelling=self.index.likely_typos)
        if reason is None:
            return Rewrite(query)
        try:
            text = await self.rewriter.rewrite(query, recent(history), here.text if here else None, reason)
        except ModelNotConfigured:
            return Rewrite(query, reason=reason)  # no model: the question is searched as asked
        except ModelError as e:
            return Rewrite(query, reason=reason, error=str(e))
        return Rewrite(query, text, reason)

    async def _decide(self, question: str, hits: list[Hit],
                      grading: _Grading) -> tuple[Case, list[Hit], tuple[Hit, ...], bool]:
        if grading.grader is not None and hits:
            head = hits[:GRADE_DEPTH]
            try:
                judged = await grading.grader.rerank(question, [h.chunk for h in head])
            except ModelError as e:
                # No model (or it failed): the calibrated scores decide instead.
                if not isinstance(e, ModelNotConfigured):
                    grading.error = str(e)
                    grading.notice = _grade_notice(e)
                grading.grader = None
                return await self._decide(question, hits, grading)
            graded = [replace(h, grade=j.grade) for h, j in zip(head, judged)]
            hits = graded + hits[GRADE_DEPTH:]
            decision = decide_by_grades([h.grade for h in graded])
            return decision.case, hits, tuple(graded[i] for i in decision.cited), True
        decision = decide_by_scores([h.signals for h in hits], self.calibration)
        if decision.case != "MATCH":
            # A passage that defines the asked term answers "what is X?" (definitions.py).
            defining = defining_hits(question, [h.chunk for h in hits])
            if defining:
                return "MATCH", hits, tuple(hits[i] for i in defining), False
        return decision.case, hits, tuple(hits[i] for i in decision.cited), False

    def _notices(self, grading: _Grading) -> tuple[Notice, ...]:
        _, reindex = self.dense_model()
        out = [reindex] if reindex is not None else []
        if grading.notice is not None:
            out.append(Notice("grader", grading.notice))
        return tuple(out)

    async def retrieve(self, question: str, position: SourcePlace | None = None,
                       history: Sequence[Turn] = (), *, use_model: bool = True) -> Retrieval:
        """``use_model=False``: no model grades or rewrites (the calibrated scores decide)."""
        grading = _Grading(self.grader if use_model else None)
        navigate = wants_navigation(question)
        query = navigation_target(question) if navigate else question
        here = chunk_at(self.index.chunks(position.source_id), position) if position is not None else None
        if position is not None and here is not None and not navigate and is_about_here(question):
            return await self._moment(question, here, position, grading)
        searched = await self.rewritten(query, history, here, use_model=use_model)
        if position is not None:
            inside = await self._inside(question, searched, position, here, navigate, grading)
            if inside is not None:
                return inside
        hits = await self.search_all(searched.queries)
        case, hits, cited, graded = await self._decide(searched.for_grading, hits, grading)
        chunks = [h.chunk for h in cited]
        unconfirmed = (case == "NO_MATCH" and not graded and bool(hits)
                       and not is_far(hits[0].signals, self.calibration))
        return Retrieval(
            question, case, tuple(hits), cited, suggest=() if navigate else suggestions(chunks),
            navigate=chunks[0] if navigate and chunks and chunks[0].anchor else None, graded=graded,
            grade_error=grading.error, rewrite=searched, notices=self._notices(grading),
            unconfirmed=unconfirmed,
        )

    async def _moment(self, question: str, here: Chunk, position: SourcePlace,
                      grading: _Grading) -> Retrieval:
        """IN_MOMENT: a "this" question at a position is about what is on screen."""
        # Look for other moments about what is on screen, to suggest (never to jump to).
        related = await self.search(f"{question} {here.text}", source_id=position.source_id)
        others = suggestions([h.chunk for h in related], current=here)
        hit = Hit(here, 0.0, {})
        return Retrieval(question, "IN_MOMENT", (hit,), (hit,), suggest=others, moment=here,
                         notices=self._notices(grading))

    async def _inside(self, question: str, searched: Rewrite, position: SourcePlace, here: Chunk | None,
                      navigate: bool, grading: _Grading) -> Retrieval | None:
        """IN_SOURCE when the source the learner is in answers; None sends the search wider."""
        hits = await self.search_all(searched.queries, source_id=position.source_id)
        case, hits, cited, graded = await self._decide(searched.for_grading, hits, grading)
        if case == "NO_MATCH":
            return None  # the source does not cover it: fall back to everything
        chunks = [h.chunk for h in cited]
        return Retrieval(
            question, "IN_SOURCE", tuple(hits), cited,
            suggest=() if navigate else suggestions(chunks, current=here),
            navigate=chunks[0] if navigate and chunks and chunks[0].anchor else None,
            moment=here, graded=graded, grade_error=grading.error, rewrite=searched,
            notices=self._notices(grading),
        )
