"""Which sessions run a turn now, the steers queued for their next one, and the one way a
turn's messages reach the chat store.

Shared by the turn runner (it begins and ends turns, and its agents save and claim through it)
and the job runner (it queues a job's steer and asks whether a turn runs), so neither holds
the other: the board is built first and handed to both.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence

from studyhall.core.agents.turn_events import TurnEvent
from studyhall.core.classroom.steers import claim_steers, pending_handoff
from studyhall.core.contracts.chat import ChatRecord, Message
from studyhall.core.contracts.steers import delivered_steer_ids, steer_part
from studyhall.core.errors import BusyError
from studyhall.core.ports.storage import ChatStore
from studyhall.core.ports.system import Clock


class RunningTurn:
    """A running turn: its task and the events it emits (read once)."""

    def __init__(self, chat_id: str) -> None:
        self.chat_id = chat_id
        self._queue: asyncio.Queue[TurnEvent | None] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None

    def emit(self, event: TurnEvent) -> None:
        self._queue.put_nowait(event)

    def close(self) -> None:
        self._queue.put_nowait(None)

    async def events(self) -> AsyncIterator[TurnEvent]:
        while (event := await self._queue.get()) is not None:
            yield event


class TurnBoard:
    def __init__(self, *, chat_store: ChatStore, clock: Clock) -> None:
        self._store = chat_store
        self._clock = clock
        self._turns: dict[str, RunningTurn] = {}
        self._queued: dict[str, list[Message]] = {}

    # --- the turn registry (single-flight per chat) ------------------------------------------

    def running(self, chat_id: str) -> bool:
        return chat_id in self._turns

    def begin(self, chat_id: str) -> RunningTurn:
        if chat_id in self._turns:
            raise BusyError("A turn is already running in this session; wait for it to finish.")
        turn = RunningTurn(chat_id)
        self._turns[chat_id] = turn
        return turn

    def get(self, chat_id: str) -> RunningTurn | None:
        return self._turns.get(chat_id)

    def end(self, chat_id: str) -> None:
        self._turns.pop(chat_id, None)

    # --- steers ------------------------------------------------------------------------------

    def queue_steer(self, chat_id: str, message: Message) -> None:
        """Queue a steer for the chat's next turn (claimed once; a delivered id is dropped)."""
        if steer_part(message) is None:
            raise ValueError("queue_steer takes a steer message (one with a SteerPart)")
        self._queued.setdefault(chat_id, []).append(message)

    def claim(self, chat_id: str, messages: Sequence[Message]) -> list[Message]:
        """Steers to deliver now: the derived hand-off, then queued ones; each id once."""
        handoff = pending_handoff(chat_id, messages, self._clock.now())
        queued = self._queued.get(chat_id, [])
        return claim_steers(messages, [*([handoff] if handoff else []), *queued])

    # --- the record --------------------------------------------------------------------------

    def save(self, chat_id: str, messages: Sequence[Message]) -> ChatRecord:
        """Persist (upsert) ``messages``; a queued steer leaves the queue once it is on disk."""
        record = self._store.save_messages(chat_id, messages, self._clock.now())
        if self._queued.get(chat_id):
            delivered = delivered_steer_ids(record.messages)
            self._queued[chat_id] = [
                m for m in self._queued[chat_id] if _steer_id(m) not in delivered
            ]
        return record


def _steer_id(message: Message) -> str | None:
    marker = steer_part(message)
    return marker.steer_id if marker else None
