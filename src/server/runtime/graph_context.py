"""Graph context at session start: the topic is embedded, the nearest propositions (top-K under a
token budget) become a one-shot ``steer_ctx_<chat_id>`` steer for the teacher.

Fire-and-forget and error-contained like every side channel: no graph, no embedder, a topic
nothing is near — no steer, and the session runs as it would have. The steer id is
deterministic, so the turn runner's claim delivers it at most once.
"""

from __future__ import annotations

import asyncio
import logging

from studyhall.core.classroom.steers import context_steer_id, steer_message
from studyhall.core.contracts.chat import Message
from studyhall.core.errors import StudyhallError
from studyhall.core.library.graph.context import render_context, select_context
from studyhall.server.runtime.classroom import turn_runner
from studyhall.server.runtime.import_runs import graph_upkeep
from studyhall.server.services import Services

log = logging.getLogger("studyhall.context")

_TASKS: set[asyncio.Task[bool]] = set()


async def context_steer(services: Services, chat_id: str, topic: str) -> Message | None:
    """The context steer for a session on ``topic``, or None when the graph has nothing near."""
    topic = " ".join(topic.split())
    if not topic or services.clock is None:
        return None
    upkeep = graph_upkeep(services)
    cache = upkeep.cache()
    if cache is None:
        return None
    snapshot = await asyncio.to_thread(upkeep.reader.snapshot)  # a cold read folds: CPU
    if not snapshot.nodes:
        return None
    vectors = await upkeep.node_vectors(snapshot)
    topic_vector = (await cache.embedder.embed([topic]))[0]
    chosen = select_context(
        topic_vector, [(n.id, n.text, n.state) for n in snapshot.nodes], vectors
    )
    if not chosen:
        return None
    return steer_message(
        context_steer_id(chat_id),
        "context",
        render_context(topic, chosen),
        services.clock.now(),
        data_name="graph-context",
        data={
            "topic": topic,
            "nodes": [
                {"id": c.node_id, "text": c.text, "similarity": c.similarity, "state": c.state}
                for c in chosen
            ],
        },
    )


async def deliver_graph_context(services: Services, chat_id: str, topic: str) -> bool:
    """Queue the steer for the chat's next turn; False when there was nothing to deliver."""
    try:
        steer = await context_steer(services, chat_id, topic)
    except StudyhallError as e:
        log.warning("[chat %s] graph context skipped: %s", chat_id, e)
        return False
    if steer is None:
        return False
    turn_runner(services).queue_steer(chat_id, steer)
    return True


def schedule_graph_context(services: Services, chat_id: str, topic: str | None) -> None:
    """Start building the context in the background (the learner is still typing)."""
    if not topic:
        return
    task = asyncio.get_running_loop().create_task(deliver_graph_context(services, chat_id, topic))
    _TASKS.add(task)

    def done(t: asyncio.Task[bool]) -> None:
        _TASKS.discard(t)
        if not t.cancelled() and t.exception() is not None:
            log.error("[chat %s] graph context failed", chat_id, exc_info=t.exception())

    task.add_done_callback(done)
