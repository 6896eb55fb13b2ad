"""A session's opening context as the learner meets it: through the Classroom's own use cases.

``Classroom.create_chat(topic)`` builds the graph-context steer in the background; the session's
first turn claims it and saves it to the record, where it is read back."""

from __future__ import annotations

from studyhall.core.contracts.chat import Message
from studyhall.core.contracts.steers import context_steer_id
from studyhall.server.runtime.runtime import Runtime


async def opened(runtime: Runtime, topic: str) -> str:
    """A new session on ``topic``, once its background context work has ended."""
    chat = runtime.classroom.create_chat(topic)
    await runtime.supervisor.idle()
    return chat.id


async def first_turn(runtime: Runtime, chat_id: str, text: str = "Hi") -> None:
    """One learner message and its whole turn (a model failing is fine: steers save first)."""
    turn = await runtime.classroom.send_message(chat_id, text)
    async for _ in turn.events():
        pass
    await runtime.supervisor.idle()


def context_steer(runtime: Runtime, chat_id: str) -> Message | None:
    """The session's context steer as saved on its record, or None when none was delivered."""
    record = runtime.services.chat_store.get(chat_id)
    assert record is not None
    return next((m for m in record.messages if m.id == context_steer_id(chat_id)), None)


async def context_for(runtime: Runtime, topic: str) -> tuple[str, Message | None]:
    """The context steer a new session on ``topic`` starts with: (its chat id, the steer)."""
    chat_id = await opened(runtime, topic)
    await first_turn(runtime, chat_id)
    return chat_id, context_steer(runtime, chat_id)
