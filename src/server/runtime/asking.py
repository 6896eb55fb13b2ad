"""One grounded question, end to end, for the HTTP route and the CLI alike: retrieval (always,
in code), then the streamed answer — or, with no model, the coverage case and the passages.

Events: ``sources`` (first: the case, the numbered passages the answer may cite, the
standalone query when a follow-up was rewritten, and notices such as "re-import: the index was
embedded by another model"), ``navigate`` / ``suggest`` (moments to jump to), ``text-delta``,
then ``finish`` — or ``error`` when the model fails mid-answer. With no model configured the
stream is ``sources`` then ``finish`` with ``answered: false``, the reason and the best-ranked
``passages`` (numbered like ``sources``) to read instead.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from typing import Any, NamedTuple

from studyhall.core.agents.answerer import AnswerDelta, citable, source_view, stream_answer
from studyhall.core.agents.reranker import ModelReranker
from studyhall.core.agents.rewriter import ModelRewriter
from studyhall.core.contracts.asking import AskRequest
from studyhall.core.contracts.search import Chunk
from studyhall.core.errors import ModelError, ModelNotConfigured, NotFound
from studyhall.core.library.retrieval.chunking import Position
from studyhall.core.library.retrieval.hybrid import Retrieval, Retriever
from studyhall.core.library.retrieval.rewriting import Turn
from studyhall.server.services import Services

log = logging.getLogger("studyhall.ask")


class AskEvent(NamedTuple):
    """One event of the ask stream as data: its SSE name and JSON payload (the route encodes it;
    the CLI reads the same values)."""

    name: str
    data: dict[str, Any]


def retriever_for(services: Services, *, grade: bool = True, rewrite: bool | None = None) -> Retriever:
    """The retriever over the app's ports; ``grade`` / ``rewrite`` let a configured model grade
    passages and rewrite follow-ups (``rewrite`` follows ``grade`` unless given)."""
    model = services.chat_model
    rewrite = grade if rewrite is None else rewrite
    return Retriever(
        index=services.search_index,
        embedder=services.embedder,
        scorer=services.passage_scorer,
        grader=ModelReranker(model) if grade else None,
        rewriter=ModelRewriter(model) if rewrite else None,
    )


def moment_view(chunk: Chunk) -> dict[str, Any]:
    return {"link": chunk.link, "source_id": chunk.source_id, "path": chunk.path,
            "anchor": chunk.anchor, "start": chunk.start, "page": chunk.page,
            "title": chunk.title, "heading": chunk.heading}


def sources_event(retrieval: Retrieval) -> AskEvent:
    chunks = citable(retrieval)
    rewrite = retrieval.rewrite
    return AskEvent("sources", {
        "case": retrieval.case,
        "graded": retrieval.graded,
        "sources": [source_view(n, c) for n, c in enumerate(chunks, start=1)],
        # The standalone query a follow-up was also searched as (None: searched as asked).
        "rewritten": rewrite.text if rewrite is not None else None,
        "notices": [{"kind": n.kind, "message": n.message} for n in retrieval.notices],
    })


def ranked_passages(retrieval: Retrieval, limit: int = 5) -> list[dict[str, Any]]:
    """With no answer, what the learner can read instead: the best-ranked passages (one per
    link), numbered — shown as "not an answer", whatever the coverage case."""
    seen: dict[str, Chunk] = {}
    for hit in retrieval.hits:
        seen.setdefault(hit.chunk.link, hit.chunk)
    return [source_view(n, c) for n, c in enumerate(list(seen.values())[:limit], start=1)]


def _log(retrieval: Retrieval) -> None:
    rewrite = retrieval.rewrite
    if rewrite is not None and rewrite.error is not None:
        log.warning("ask: the %s rewrite was not used, searched as asked: %s", rewrite.reason, rewrite.error)
    elif rewrite is not None and rewrite.text is not None:
        log.info("ask: %s rewrite used next to the question", rewrite.reason)
    if retrieval.grade_error is not None:
        log.warning("ask: the reranker could not grade, scores decided: %s", retrieval.grade_error)
    for notice in retrieval.notices:
        if notice.kind == "reindex":
            log.warning("ask: %s", notice.message)


def position_of(services: Services, request: AskRequest) -> Position | None:
    """Where the question is asked from (``None``: nowhere in particular). A source the index
    holds no passage of is ``NotFound``, for the CLI and the HTTP route alike. Reads the index:
    call it off the event loop."""
    if request.source_id is None:
        return None
    if not services.search_index.chunks(request.source_id):
        raise NotFound(
            f"No imported source {request.source_id!r} has passages to ask from. "
            "`studyhall sources --json` (GET /api/sources) lists the imported sources' ids."
        )
    return Position(request.source_id, t=request.t, page=request.page, at=request.at)


async def ask_events(services: Services, question: str, position: Position | None = None,
                     *, use_model: bool = True, history: Sequence[Turn] = ()) -> AsyncIterator[AskEvent]:
    retriever = retriever_for(services, grade=use_model)
    retrieval = await retriever.retrieve(question, position, history)
    _log(retrieval)
    yield sources_event(retrieval)
    if retrieval.navigate is not None:
        yield AskEvent("navigate", moment_view(retrieval.navigate))
    if retrieval.suggest:
        yield AskEvent("suggest", {"moments": [moment_view(c) for c in retrieval.suggest]})
    base = {"case": retrieval.case, "ranked": retrieval.ranked_links()}
    if not use_model:
        yield AskEvent("finish", {**base, "answered": False, "reason": "no model requested",
                                  "passages": ranked_passages(retrieval)})
        return
    try:
        async for part in stream_answer(services.chat_model, retrieval, history):
            if isinstance(part, AnswerDelta):
                yield AskEvent("text-delta", {"text": part.text})
            else:
                yield AskEvent("finish", {**base, "answered": True, "cited": list(part.cited),
                                          "removed_markers": part.removed_markers})
    except ModelNotConfigured as e:
        yield AskEvent("finish", {**base, "answered": False, "reason": str(e),
                                  "passages": ranked_passages(retrieval)})
    except ModelError as e:
        yield AskEvent("error", {"error": type(e).__name__, "kind": e.kind, "role": e.role,
                                 "message": str(e)})
