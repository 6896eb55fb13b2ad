"""``AskDesk``: the Ask system's one door — a grounded question over the learner's imported
material as a stream of typed events (the window's, recorded in the Ask history, and the
command line's), that history's reads, and the same material for the rest of the app: the
tutor's material tool (the ``Learner``), a sub-agent's grounding and the retrieval eval.

It holds the app's one ``Retriever``, built once in the composition root. A question asked
with a model has it grade the passages and rewrite a follow-up; everything else (``--no-model``,
the tools, grounding, the eval) runs the same retriever with ``use_model=False``: a tool call
inside a turn or a sub-agent's grounding pays no model call of its own, and the eval measures
what a learner without a key gets.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence

from studyhall.core.agents.grounding import Grounding
from studyhall.core.contracts.ask_stream import AskEvent
from studyhall.core.contracts.asking import AskRequest
from studyhall.core.contracts.asks import AskThread, AskThreadSummary
from studyhall.core.errors import NotFound
from studyhall.core.library.retrieval.chunking import SourcePlace
from studyhall.core.library.retrieval.hybrid import Notice, Retrieval, Retriever
from studyhall.core.library.retrieval.rewriting import Turn
from studyhall.core.ports.models import ChatModel
from studyhall.core.ports.search import SearchIndex
from studyhall.core.ports.storage import AskStore, ChatStore
from studyhall.core.ports.system import Clock, Ids
from studyhall.server.runtime.ask.answering import answer_events
from studyhall.server.runtime.ask.grounding import gather_grounding
from studyhall.server.runtime.ask.history import recorded
from studyhall.server.runtime.library.graph_reader import GraphReader


class AskDesk:
    def __init__(self, *, retriever: Retriever, model: ChatModel, index: SearchIndex,
                 store: AskStore, clock: Clock, ids: Ids, graph: GraphReader,
                 chats: ChatStore) -> None:
        self._retriever = retriever
        self._model = model
        self._index = index
        self._store = store
        self._clock = clock
        self._ids = ids
        self._graph = graph
        self._chats = chats

    # --- a question ----------------------------------------------------------------------------

    def position(self, request: AskRequest) -> SourcePlace | None:
        """Where the question is asked from (``None``: nowhere in particular). A source the index
        holds no passage of is ``NotFound``, for the CLI and the HTTP route alike. Reads the
        index: call it off the event loop."""
        if request.source_id is None:
            return None
        if not self._index.chunks(request.source_id):
            raise NotFound(
                f"No imported source {request.source_id!r} has passages to ask from. "
                "`studyhall sources --json` (GET /api/sources) lists the imported sources' ids."
            )
        return SourcePlace(request.source_id, t=request.t, page=request.page, at=request.at)

    def ask(self, request: AskRequest, position: SourcePlace | None) -> AsyncIterator[AskEvent]:
        """The window's question: with the conversation it follows, and kept in the Ask history
        when it names a ``thread_id`` (before the passages go out, as the answer streams, at
        the end)."""
        history = [Turn(t.role, t.text) for t in request.history]
        events = self.answer(request.question.strip(), position, history=history)
        if request.thread_id is None:
            return events
        return recorded(events, request, self._store, self._clock, self._ids)

    def answer(self, question: str, position: SourcePlace | None = None, *, use_model: bool = True,
               history: Sequence[Turn] = ()) -> AsyncIterator[AskEvent]:
        """The events of one question, recorded nowhere (``use_model=False``: retrieval alone,
        the coverage case and the passages)."""
        return answer_events(self._retriever, self._model, question, position,
                             use_model=use_model, history=history)

    # --- the Ask history (blocking: files) -----------------------------------------------------

    def threads(self) -> list[AskThreadSummary]:
        return self._store.list()

    def thread(self, thread_id: str) -> AskThread | None:
        return self._store.get(thread_id)

    def forget(self, thread_id: str) -> None:
        """``NotFound`` when there is no such conversation."""
        self._store.remove(thread_id)

    # --- the material, for the rest of the app (no model grades or rewrites) ----------------

    def passages(self) -> int:
        """How many passages the index holds (blocking: reads it)."""
        return self._index.size()

    def search_notice(self) -> Notice | None:
        """Why a search would run on words alone or in part (the index was embedded by another
        model than the current one), when it would."""
        return self._retriever.dense_model()[1]

    async def search(self, query: str) -> Retrieval:
        return await self._retriever.retrieve(query, use_model=False)

    async def look_up(self, query: str) -> Retrieval | None:
        """``search``, or ``None`` when nothing is imported."""
        if await asyncio.to_thread(self.passages) == 0:
            return None
        return await self.search(query)

    async def grounding(self, chat_id: str, query: str) -> Grounding:
        """A sub-agent's grounding: the graph's facts, the session's words, the material."""
        return await gather_grounding(self._graph, self._chats, self.look_up, chat_id, query)
