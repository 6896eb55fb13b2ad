"""``LearnerToolAnswers``: the answers behind the tutor's learner tools (the
``LearnerToolsPort`` of ``core/agents/learner_tools.py``) — the learner model through
``LearnerLedgers``, past sessions through the chat store, imported material through Ask's one
retriever (``AskDesk``), graph lookups through ``NodeFinder``. Single-learner app: "this
learner's data" is this data dir's. The ``Learner`` façade answers the tools through it.

Every read and every derivation runs off the event loop (stores are files, a cold graph read
folds, a day plan replays FSRS cards); only the node search awaits in between. Observations
are written only through ``LearnerLedgers.observe`` (the learner ledgers' one writer), kept
flashcards through ``LearnerLedgers.keep_flashcards`` / ``retire_flashcards``.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from studyhall.core.agents.grounding import Passage, clip_passage, render_passages
from studyhall.core.agents.tools import ToolContext
from studyhall.core.classroom.history_search import search_history
from studyhall.core.contracts.chat import ChatRecord
from studyhall.core.library.learner import insight
from studyhall.core.library.learner.model import LearnerModel
from studyhall.core.ports.storage import ChatStore, LearnerStore
from studyhall.server.runtime.learner.ledgers import LearnerLedgers
from studyhall.server.runtime.library.node_finder import NEAR_AT, NodeFinder

if TYPE_CHECKING:
    # A type only: Ask's package reads the graph through the library's, which needs this one.
    from studyhall.server.runtime.ask import AskDesk

HISTORY_SESSIONS = 200  # the most recently active sessions a history search reads
OBSERVATIONS_PER_SESSION = 3  # of one concept: more would let talk outweigh measurement
# One model step checks, then runs, several tool calls: one read of the learner model serves
# them all. Reading it costs a graph read and the ledgers (≈0.2-1 s on a 20,000-node graph);
# a grade posted meanwhile shows in the next step. An observation drops it at once.
MODEL_FRESH_S = 2.0


class LearnerToolAnswers:
    def __init__(self, *, ledgers: LearnerLedgers, finder: NodeFinder, chat_store: ChatStore,
                 learner_store: LearnerStore, material: AskDesk) -> None:
        self._ledgers = ledgers
        self._finder = finder
        self._chats = chat_store
        self._learner = learner_store
        self._material = material
        self._read: tuple[float, LearnerModel] | None = None
        self._lock = threading.Lock()

    async def model(self) -> LearnerModel:
        """The learner model now (a read at most ``MODEL_FRESH_S`` old)."""
        with self._lock:
            read = self._read
        if read is not None and time.monotonic() - read[0] < MODEL_FRESH_S:
            return read[1]
        model = await asyncio.to_thread(self._ledgers.model)
        with self._lock:
            self._read = (time.monotonic(), model)
        return model

    def _forget(self) -> None:
        with self._lock:
            self._read = None

    async def _topic(self, ctx: ToolContext) -> str | None:
        record = await asyncio.to_thread(self._chats.get, ctx.chat_id)
        return record.topic if record is not None else None

    # --- reads ---------------------------------------------------------------------------------

    async def strengths(self, ctx: ToolContext, topic: str | None, limit: int) -> Any:
        model = await self.model()
        among = await self._finder.near(topic, model.snapshot) if topic else None
        out = await asyncio.to_thread(insight.strengths, model, among, limit)
        out["scope"] = f"concepts near “{topic}” ({len(among or ())})" if topic \
            else f"the whole graph ({len(model.snapshot.nodes)} concepts)"
        return out

    async def confidence(self, concept: str) -> Any:
        model = await self.model()
        if model.snapshot.node(concept) is not None:
            return {"matches": [await asyncio.to_thread(insight.standing, model, concept)]}
        hits = [h for h in await self._finder.search(concept, model.snapshot, limit=3)
                if h.score >= NEAR_AT]
        if not hits:
            return {"matches": [], "note": f"Nothing in the learner's graph matches "
                    f"“{concept}”: treat it as not tried."}
        found = await asyncio.to_thread(
            lambda: [{**insight.standing(model, h.node_id), "match": h.score} for h in hits])
        return {"matches": found}

    async def explain(self, node_id: str) -> Any:
        return await asyncio.to_thread(insight.explain, await self.model(), node_id)

    async def due(self, ctx: ToolContext, topic: str | None, limit: int) -> Any:
        model = await self.model()
        topic = topic or await self._topic(ctx)
        if topic:
            among: list[str] | None = await self._finder.near(topic, model.snapshot)
            scope = f"concepts near “{topic}”"
        else:  # no topic: what this session already touched, else the whole queue
            among = [n.id for n in model.snapshot.nodes if ctx.chat_id in n.sources] or None
            scope = "concepts of this session" if among else "the whole review queue"
        return {**await asyncio.to_thread(insight.due, model, among, limit), "scope": scope}

    async def history(self, ctx: ToolContext, query: str, limit: int) -> Any:
        records = await asyncio.to_thread(self._recent_sessions, ctx.chat_id)
        hits = search_history(records, query, limit=limit, skip_chat=ctx.chat_id)
        return {"results": [{"chat_id": h.chat_id, "session": h.session, "role": h.role,
                             "at": h.at.isoformat(), "excerpt": h.excerpt} for h in hits],
                "searched_sessions": len(records)}

    def _recent_sessions(self, skip: str) -> list[ChatRecord]:
        summaries = sorted(self._chats.list(), key=lambda s: s.updated_at, reverse=True)
        records = []
        for summary in summaries:
            if summary.id == skip or not summary.message_count:
                continue
            record = self._chats.get(summary.id)
            if record is not None:
                records.append(record)
            if len(records) >= HISTORY_SESSIONS:
                break
        return records

    async def material(self, query: str, limit: int) -> Any:
        retrieval = await self._material.look_up(query)
        if retrieval is None:
            return {"case": "NO_MATERIAL", "count": 0, "passages": "",
                    "note": "The learner has imported no material (notes, transcripts, PDFs)."}
        cited = [] if retrieval.case == "NO_MATCH" else list(retrieval.cited[:limit])
        passages = [Passage(n, h.chunk.link, h.chunk.title, clip_passage(h.chunk.text),
                            h.chunk.source_id) for n, h in enumerate(cited, start=1)]
        return {"case": retrieval.case, "count": len(passages),
                "sources": [{"n": p.n, "title": p.title, "link": p.link} for p in passages],
                "passages": render_passages(passages)}

    async def has_node(self, node_id: str) -> bool:
        model = await self.model()
        return model.snapshot.node(node_id) is not None

    # --- flashcards (an artifact's, kept or deleted) ------------------------------------------

    async def keep_flashcards(self, artifact_id: str,
                              cards: Sequence[Mapping[str, str | None]]) -> int:
        """Queue a kept flashcards artifact's cards (``node_id``, ``front``, ``back``,
        ``evidence``?) for review, each on its node; cards without a node are not queued.
        Idempotent. How many joined the queue."""
        self._forget()
        try:
            return await asyncio.to_thread(self._ledgers.keep_flashcards, artifact_id, cards)
        finally:
            self._forget()

    async def retire_flashcards(self, artifact_id: str) -> None:
        """The artifact was deleted: its cards leave the review queue (grades stay evidence)."""
        self._forget()
        try:
            await asyncio.to_thread(self._ledgers.retire_flashcards, artifact_id)
        finally:
            self._forget()

    # --- the one write -------------------------------------------------------------------------

    async def observed(self, ctx: ToolContext, node_id: str, quote: str) -> str | None:
        records = await asyncio.to_thread(lambda: self._learner.observations().records)
        mine = [o for o in records if o.source_id == ctx.chat_id and o.node_id == node_id]
        if any(o.note.startswith(_quoted(quote)) for o in mine):
            return "this quote is already on record for this concept: nothing to add"
        if len(mine) >= OBSERVATIONS_PER_SESSION:
            return (f"{len(mine)} observations of this concept are on record for this session; "
                    "check it with a quiz instead")
        return None

    async def observe(self, ctx: ToolContext, node_id: str, level: str, quote: str,
                      note: str) -> Any:
        before = (await self.model()).score(node_id).value
        text = f"{_quoted(quote)} — {note}" if note else _quoted(quote)
        self._forget()
        after = await asyncio.to_thread(self._ledgers.observe, node_id, level, text, ctx.chat_id)
        self._forget()
        return {"recorded": True, "node_id": node_id, "level": level,
                "mastery_before": None if before is None else round(before, 2),
                "mastery": None if after["mastery"] is None else round(after["mastery"], 2),
                "state": after["state"]}


def _quoted(quote: str) -> str:
    return f"“{quote}”"
