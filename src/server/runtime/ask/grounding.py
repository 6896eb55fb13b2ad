"""Gathering a sub-agent's grounding through ports: the learner's graph (the snapshot, with the
chosen ideas' evidence quotes), their imported material (the search index) and the session the
job was asked from (its transcript). Any may be empty; none failing fails a job — a sub-agent
without grounding still answers, from general knowledge. Writers quote this material, and a
card whose quote is not in it is dropped, so a session's own words must be in it.

``AskDesk.grounding`` is the way in: the material comes through its one retriever.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from studyhall.core.agents.grounding import (
    GraphFact,
    Grounding,
    NodeInfo,
    Passage,
    clip_passage,
    select_facts,
)
from studyhall.core.agents.scope_grounding import evidence_passages, transcript_passages
from studyhall.core.library.retrieval.hybrid import Retrieval
from studyhall.core.ports.storage import ChatStore
from studyhall.server.runtime.library.graph_reader import GraphReader

log = logging.getLogger("studyhall.jobs")

MAX_PASSAGES = 6
MAX_EVIDENCE = 6  # the chosen ideas' evidence quotes, one passage per idea
MAX_TRANSCRIPT = 4  # stretches of the session the job was asked from


async def gather_grounding(
    reader: GraphReader, chats: ChatStore,
    look_up: Callable[[str], Awaitable[Retrieval | None]], chat_id: str, query: str,
) -> Grounding:
    """``look_up``: the material's model-free retrieval (``None``: nothing is imported)."""
    facts: tuple[GraphFact, ...] = ()
    evidence: tuple[Passage, ...] = ()
    try:
        snapshot = await asyncio.to_thread(reader.snapshot)  # a cold read folds: CPU
        nodes = [NodeInfo(n.id, n.text, n.state, tuple(n.sources)) for n in snapshot.nodes]
        facts = select_facts(query, chat_id, nodes)
        by_id = {n.id: n for n in snapshot.nodes}
        chosen = [by_id[f.node_id] for f in facts if f.node_id in by_id]
        evidence = await asyncio.to_thread(evidence_passages, chosen, 1, MAX_EVIDENCE)
    except Exception as e:  # noqa: BLE001 — grounding is a help, never a failure
        log.warning("[chat %s] graph grounding skipped: %s: %s", chat_id, type(e).__name__, e)
    transcript: tuple[Passage, ...] = ()
    try:
        record = await asyncio.to_thread(chats.get, chat_id)
        if record is not None:
            transcript = transcript_passages(record.messages[-40:], chat_id, 1, MAX_TRANSCRIPT)
    except Exception as e:  # noqa: BLE001 — as above
        log.warning("[chat %s] transcript grounding skipped: %s: %s", chat_id,
                    type(e).__name__, e)
    passages: tuple[Passage, ...] = ()
    if query.strip():
        try:
            retrieval = await look_up(query)
            if retrieval is not None and retrieval.case != "NO_MATCH":
                passages = tuple(
                    Passage(n, h.chunk.link, h.chunk.title, clip_passage(h.chunk.text),
                            h.chunk.source_id)
                    for n, h in enumerate(retrieval.cited[:MAX_PASSAGES], start=1))
        except Exception as e:  # noqa: BLE001 — as above
            log.warning("[chat %s] source grounding skipped: %s: %s", chat_id, type(e).__name__, e)
    extra = (*passages, *transcript, *evidence)
    return Grounding(facts, tuple(Passage(n, p.link, p.title, p.text, p.source_id)
                                  for n, p in enumerate(extra, start=1)))
