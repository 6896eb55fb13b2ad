"""One grounded question, end to end, as typed events (``core/contracts/ask_stream.py``):
retrieval (always, in code), then the streamed answer — or, with no model, the coverage case
and the passages.

``AskSources`` first (the case, the numbered passages the answer may cite, the standalone query
when a follow-up was rewritten, and notices such as "re-import: the index was embedded by
another model"), ``AskNavigate`` / ``AskSuggest`` (moments to jump to), ``AskTextDelta``, then
``AskFinish`` — or ``StreamError`` when the model fails mid-answer. With no model the stream is
``AskSources`` then ``AskFinish`` with ``answered: false``, the reason and the best-ranked
``passages`` (numbered like the sources) to read instead.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence

from studyhall.core.agents.answerer import (
    AnswerDelta,
    citable,
    shown,
    source_view,
    stream_answer,
)
from studyhall.core.contracts.ask_stream import (
    AskEvent,
    AskFinish,
    AskMoment,
    AskNavigate,
    AskNotice,
    AskPassage,
    AskSources,
    AskSuggest,
    AskTextDelta,
)
from studyhall.core.contracts.search import Chunk
from studyhall.core.contracts.stream import StreamError
from studyhall.core.errors import ModelError, ModelNotConfigured
from studyhall.core.library.retrieval.chunking import SourcePlace
from studyhall.core.library.retrieval.closest import closest_sentence
from studyhall.core.library.retrieval.hybrid import Retrieval, Retriever
from studyhall.core.library.retrieval.moments import moment_of
from studyhall.core.library.retrieval.rewriting import Turn
from studyhall.core.ports.models import ChatModel

log = logging.getLogger("studyhall.ask")


def sources_event(retrieval: Retrieval) -> AskSources:
    rewrite = retrieval.rewrite
    # ``unconfirmed`` goes out only when true (an optional field is sent only when given).
    unconfirmed = {"unconfirmed": True} if retrieval.unconfirmed else {}
    return AskSources(
        case=retrieval.case, graded=retrieval.graded, **unconfirmed,
        sources=[source_view(n, c) for n, c in enumerate(citable(retrieval), start=1)],
        # The standalone query a follow-up was also searched as (None: searched as asked).
        rewritten=rewrite.text if rewrite is not None else None,
        notices=[AskNotice(kind=n.kind, message=n.message) for n in retrieval.notices])


def ranked_passages(retrieval: Retrieval, limit: int = 5) -> list[AskPassage]:
    """With no answer, what the learner can read instead: the best-ranked passages (one per
    link), numbered — shown as "not an answer", whatever the coverage case — each with the
    sentence nearest the question when one shares enough of its words."""
    seen: dict[str, Chunk] = {}
    for hit in retrieval.hits:
        seen.setdefault(hit.chunk.link, hit.chunk)
    out = []
    for n, chunk in enumerate(list(seen.values())[:limit], start=1):
        view = source_view(n, chunk)
        closest = closest_sentence(retrieval.question, chunk)
        closest = shown(chunk, closest) if closest is not None else None
        # Only a sentence the snippet shows can be marked in it.
        if closest is None or closest not in view.text:
            out.append(view)
            continue
        found: dict[str, object] = {"closest": closest}
        # A lecture's window spans a minute: the sentence has its own moment (its cue's).
        moment = moment_of(chunk, view.text.index(closest))
        if moment is not None and chunk.start is not None:
            found["closest_start"] = moment
        out.append(view.model_copy(update=found))
    return out


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


async def answer_events(retriever: Retriever, model: ChatModel, question: str,
                        position: SourcePlace | None = None, *, use_model: bool = True,
                        history: Sequence[Turn] = ()) -> AsyncIterator[AskEvent]:
    retrieval = await retriever.retrieve(question, position, history, use_model=use_model)
    _log(retrieval)
    yield sources_event(retrieval)
    if retrieval.navigate is not None:
        yield AskNavigate.of(retrieval.navigate)
    if retrieval.suggest:
        yield AskSuggest(moments=[AskMoment.of(c) for c in retrieval.suggest])
    case, ranked = retrieval.case, retrieval.ranked_links()
    if not use_model:
        yield AskFinish(case=case, ranked=ranked, answered=False, reason="no model requested",
                        passages=ranked_passages(retrieval))
        return
    try:
        async for part in stream_answer(model, retrieval, history):
            if isinstance(part, AnswerDelta):
                yield AskTextDelta(text=part.text)
            else:
                yield AskFinish(case=case, ranked=ranked, answered=True, cited=list(part.cited),
                                removed_markers=part.removed_markers)
    except ModelNotConfigured as e:
        yield AskFinish(case=case, ranked=ranked, answered=False, reason=str(e),
                        passages=ranked_passages(retrieval))
    except ModelError as e:
        # The one ``error`` shape of every stream (``sse.py``'s), with the model's kind and role.
        yield StreamError(error=type(e).__name__, message=str(e), kind=e.kind, role=e.role)
