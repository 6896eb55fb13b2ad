"""The Classroom: the one object the session routes use. It creates chats (on a topic, or on a
learner's goal), lists and reads them, runs a turn for a learner's message, an answer or a
retry, stops a turn, and wakes one when a job's steer waits. The turn pipeline (``turns.py``)
and the graph context (``graph_context.py``) are its inner parts, built by the composition
root."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from studyhall.core.agents.study_material import study_steer
from studyhall.core.contracts.chat import MAX_TOPIC_CHARS, ChatRecord
from studyhall.core.errors import NotFound
from studyhall.core.ports.storage import ChatStore
from studyhall.core.ports.system import Clock
from studyhall.server.runtime.classroom.graph_context import GraphContext
from studyhall.server.runtime.classroom.study import StudyMaterials
from studyhall.server.runtime.classroom.turn_board import RunningTurn
from studyhall.server.runtime.classroom.turns import TurnRunner
from studyhall.server.runtime.classroom.views import chat_view
from studyhall.server.runtime.reactions import WakeWanted

if TYPE_CHECKING:  # a type only, as in graph_context.py: goals are the learner's
    from studyhall.server.runtime.learner import Learner

__all__ = ["Classroom"]


class Classroom:
    def __init__(self, *, turns: TurnRunner, context: GraphContext, chats: ChatStore,
                 study: StudyMaterials, clock: Clock, learner: Learner) -> None:
        self._turns = turns
        self._context = context
        self._chats = chats
        self._study = study
        self._clock = clock
        self._learner = learner  # the goals a session may continue

    def create_chat(self, topic: str | None = None) -> ChatRecord:
        """An empty session; its topic's nearest propositions are queued as a one-shot steer
        in the background (graph context, issue 7) while the learner types."""
        record = self._turns.create_chat(topic)
        self._context.schedule(record.id, record.topic)
        return record

    async def study(self, node_id: str, topic: str | None = None) -> ChatRecord:
        """"Study this": a session on a node of the map whose record keeps the node's id and
        opens with its note's material (``NotFound`` for a node the map does not hold)."""
        material = await self._study.material(node_id)
        named = topic if topic and topic.strip() else material.title[:MAX_TOPIC_CHARS].strip()
        at = self._clock.now()
        record = self._turns.create_chat(
            named, node_id=material.node_id,
            opening=lambda chat_id: [study_steer(chat_id, material, at)])
        self._context.schedule(record.id, record.topic)
        return record

    async def start_goal_session(self, goal_id: str) -> ChatRecord:
        """A session on a goal: it resumes at the goal's next step not yet solid (the teacher
        reads a goal steer first, then the graph's context near that step), and the plan it
        approves flows back into the goal after each turn. ``NotFound`` for an unknown goal,
        before any session is made."""
        opening = await asyncio.to_thread(self._learner.goal_opening, goal_id)
        # The goal steer is saved with the record in one write (like a studied note's
        # material), so a restart before the first message loses nothing.
        record = self._turns.create_chat(
            opening.topic, opening=lambda chat_id: [self._learner.goal_steer(opening, chat_id)])
        await asyncio.to_thread(self._learner.attach_goal, opening, record.id)
        self._context.schedule(record.id, opening.step or opening.topic)
        return record

    def list_chats(self) -> list[dict[str, Any]]:
        """Every session, newest first, each with whether a turn runs on it now."""
        return [{**s.model_dump(mode="json"), "turn_running": self._turns.running(s.id)}
                for s in self._chats.list()]

    def chat(self, chat_id: str) -> dict[str, Any]:
        """One session's view: the record plus phase, plan, pending questions, usage."""
        return chat_view(self._record(chat_id), running=self._turns.running(chat_id))

    async def send_message(self, chat_id: str, text: str, message_id: str | None = None,
                           *, as_written: bool = False) -> RunningTurn:
        return await self._turns.send_message(chat_id, text, message_id, as_written=as_written)

    async def answer(self, chat_id: str, tool_call_id: str, answer: Any) -> RunningTurn:
        return await self._turns.answer(chat_id, tool_call_id, answer)

    async def resume(self, chat_id: str) -> RunningTurn:
        return await self._turns.resume(chat_id)

    async def stop(self, chat_id: str) -> bool:
        """Stop the running turn (False if none ran); an unknown session is ``NotFound``."""
        self._record(chat_id)
        return await self._turns.stop(chat_id)

    async def wake(self, wanted: WakeWanted) -> None:
        await self._turns.wake(wanted)

    def _record(self, chat_id: str) -> ChatRecord:
        record = self._chats.get(chat_id)
        if record is None:
            raise NotFound(f"No session {chat_id!r}.")
        return record
