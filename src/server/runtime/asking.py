"""One grounded question, end to end, for the HTTP route and the CLI alike: retrieval (always,
in code), then the streamed answer — or, with no model, the coverage case and the passages.

Events: ``sources`` (first: the case and the numbered passages the answer may cite),
``navigate`` / ``suggest`` (moments to jump to), ``text-delta``, then ``finish`` — or ``error``
when the model fails mid-answer. With no model configured the stream is ``sources`` then
``finish`` with ``answered: false`` and the reason.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from studyhall.core.agents.answerer import AnswerDelta, citable, source_view, stream_answer
from studyhall.core.agents.reranker import ModelReranker
from studyhall.core.errors import ModelError, ModelNotConfigured, StudyhallError
from studyhall.core.library.chunking import Position
from studyhall.core.library.retrieval import Retrieval, Retriever
from studyhall.core.ports import Chunk

from ..services import Services

Event = tuple[str, dict[str, Any]]


def retriever_for(services: Services, *, grade: bool = True) -> Retriever:
    if services.search_index is None:
        raise StudyhallError("The search index is not available in this build.")
    grader = ModelReranker(services.chat_model) if grade and services.chat_model is not None else None
    return Retriever(
        index=services.search_index,
        embedder=services.embedder or services.local_encoder,
        scorer=services.passage_scorer,
        grader=grader,
    )


def moment_view(chunk: Chunk) -> dict[str, Any]:
    return {"link": chunk.link, "source_id": chunk.source_id, "path": chunk.path,
            "anchor": chunk.anchor, "start": chunk.start, "page": chunk.page,
            "title": chunk.title, "heading": chunk.heading}


def sources_event(retrieval: Retrieval) -> Event:
    chunks = citable(retrieval)
    return "sources", {
        "case": retrieval.case,
        "graded": retrieval.graded,
        "sources": [source_view(n, c) for n, c in enumerate(chunks, start=1)],
    }


async def ask_events(services: Services, question: str, position: Position | None = None,
                     *, use_model: bool = True) -> AsyncIterator[Event]:
    retriever = retriever_for(services, grade=use_model)
    retrieval = await retriever.retrieve(question, position)
    yield sources_event(retrieval)
    if retrieval.navigate is not None:
        yield "navigate", moment_view(retrieval.navigate)
    if retrieval.suggest:
        yield "suggest", {"moments": [moment_view(c) for c in retrieval.suggest]}
    base = {"case": retrieval.case, "ranked": retrieval.ranked_links()}
    if not use_model or services.chat_model is None:
        yield "finish", {**base, "answered": False, "reason": "no model requested"}
        return
    try:
        async for part in stream_answer(services.chat_model, retrieval):
            if isinstance(part, AnswerDelta):
                yield "text-delta", {"text": part.text}
            else:
                yield "finish", {**base, "answered": True, "cited": list(part.cited),
                                 "removed_markers": part.removed_markers}
    except ModelNotConfigured as e:
        yield "finish", {**base, "answered": False, "reason": str(e)}
    except ModelError as e:
        yield "error", {"error": type(e).__name__, "kind": e.kind, "role": e.role, "message": str(e)}
