"""Gathering a sub-agent's grounding through ports: the learner's graph (the snapshot) and
their imported material (the search index). Either may be empty; neither failing fails a job —
a sub-agent without grounding still answers, from general knowledge.
"""

from __future__ import annotations

import asyncio
import logging

from studyhall.core.agents.grounding import (
    GraphFact,
    Grounding,
    NodeInfo,
    Passage,
    clip_passage,
    select_facts,
)
from studyhall.server.runtime.asking import retriever_for
from studyhall.server.runtime.graph_reader import GraphReader
from studyhall.server.services import Services

log = logging.getLogger("studyhall.jobs")

MAX_PASSAGES = 6


async def gather_grounding(
    services: Services, reader: GraphReader, chat_id: str, query: str
) -> Grounding:
    facts: tuple[GraphFact, ...] = ()
    try:
        snapshot = await asyncio.to_thread(reader.snapshot)  # a cold read folds: CPU
        nodes = [NodeInfo(n.id, n.text, n.state, tuple(n.sources)) for n in snapshot.nodes]
        facts = select_facts(query, chat_id, nodes)
    except Exception as e:  # noqa: BLE001 — grounding is a help, never a failure
        log.warning("[chat %s] graph grounding skipped: %s: %s", chat_id, type(e).__name__, e)
    passages: tuple[Passage, ...] = ()
    index = services.search_index
    if query.strip():
        try:
            if await asyncio.to_thread(index.size) > 0:
                retrieval = await retriever_for(services, grade=False).retrieve(query)
                if retrieval.case != "NO_MATCH":
                    passages = tuple(
                        Passage(n, h.chunk.link, h.chunk.title, clip_passage(h.chunk.text),
                                h.chunk.source_id)
                        for n, h in enumerate(retrieval.cited[:MAX_PASSAGES], start=1))
        except Exception as e:  # noqa: BLE001 — as above
            log.warning("[chat %s] source grounding skipped: %s: %s", chat_id, type(e).__name__, e)
    return Grounding(facts, passages)
