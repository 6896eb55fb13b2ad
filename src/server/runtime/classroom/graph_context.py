"""Graph context at session start: the topic is embedded, the nearest propositions (top-K under a
token budget) become a one-shot ``steer_ctx_<chat_id>`` steer for the teacher — followed by the
learner's standing near the topic ("Weak here: …", "Due for review: …", the gaps gating hard
questions, a line per live misconception pattern), read from the learner model over the same
graph read.

Fire-and-forget and error-contained like every side channel: no graph, no embedder, a topic
nothing is near — no steer, and the session runs as it would have. The steer id is
deterministic, so the turn runner's claim delivers it at most once.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from studyhall.core.contracts.chat import Message
from studyhall.core.contracts.steers import context_steer_id, steer_message
from studyhall.core.errors import StudyhallError
from studyhall.core.library.graph.context import render_context, select_context
from studyhall.core.library.graph.view import GraphSnapshot
from studyhall.core.library.learner.session_context import NearStanding, near_standing
from studyhall.core.ports.system import Clock
from studyhall.server.runtime.classroom.turn_board import TurnBoard
from studyhall.server.runtime.library.graph_upkeep import GraphUpkeep
from studyhall.server.runtime.supervisor import Supervisor

if TYPE_CHECKING:
    # A type only: the façades' packages reach into each other's modules (the graph reader,
    # the ledgers), so one façade's class is never imported at run time by another's part.
    from studyhall.server.runtime.learner import Learner

log = logging.getLogger("studyhall.context")

NEAR_K = 50  # the neighbourhood whose weak and due concepts the steer names


class GraphContext:
    def __init__(
        self, *, board: TurnBoard, upkeep: GraphUpkeep, clock: Clock, supervisor: Supervisor,
        learner: Learner,
    ) -> None:
        self._learner = learner
        self._board = board  # the steer waits there for the chat's next turn
        self._upkeep = upkeep
        self._clock = clock
        self._supervisor = supervisor

    async def steer(self, chat_id: str, topic: str) -> Message | None:
        """The context steer for a session on ``topic``, or None when the graph has nothing
        near."""
        topic = " ".join(topic.split())
        if not topic:
            return None
        upkeep = self._upkeep
        cache = upkeep.cache()
        if cache is None:
            return None
        snapshot = await asyncio.to_thread(upkeep.reader.snapshot)  # a cold read folds: CPU
        if not snapshot.nodes:
            return None
        vectors = await upkeep.node_vectors(snapshot)
        topic_vector = (await cache.embedder.embed([topic]))[0]
        nodes = [(n.id, n.text, n.state) for n in snapshot.nodes]
        chosen = select_context(topic_vector, nodes, vectors)
        if not chosen:
            return None
        near = [c.node_id for c in select_context(topic_vector, nodes, vectors, k=NEAR_K,
                                                   token_budget=1 << 30)]
        standing = await asyncio.to_thread(self._standing, snapshot, near)
        return steer_message(
            context_steer_id(chat_id),
            "context",
            render_context(topic, chosen, standing.lines()),
            self._clock.now(),
            data_name="graph-context",
            data={
                "topic": topic,
                "nodes": [
                    {"id": c.node_id, "text": c.text, "similarity": c.similarity,
                     "state": c.state}
                    for c in chosen
                ],
                **standing.data(),
            },
        )

    def _standing(self, snapshot: GraphSnapshot, near: list[str]) -> NearStanding:
        """The learner's weak, due and gated concepts among ``near`` (none when the learner
        model cannot be read: the propositions still go out)."""
        try:
            model = self._learner.model(snapshot)
            return near_standing(model, near, patterns=self._learner.misconceptions(model))
        except StudyhallError as e:
            log.warning("graph context without the learner's standing: %s", e)
            return NearStanding()

    async def deliver(self, chat_id: str, topic: str) -> bool:
        """Queue the steer for the chat's next turn; False when there was nothing to deliver."""
        try:
            steer = await self.steer(chat_id, topic)
        except StudyhallError as e:
            log.warning("[chat %s] graph context skipped: %s", chat_id, e)
            return False
        if steer is None:
            return False
        self._board.queue_steer(chat_id, steer)
        return True

    def schedule(self, chat_id: str, topic: str | None) -> None:
        """Start building the context in the background (the learner is still typing); a
        failure is logged with the task's name."""
        if topic:
            self._supervisor.spawn(f"graph context {chat_id}", self.deliver(chat_id, topic))
