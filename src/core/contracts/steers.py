"""Steer messages: each kind's deterministic id, how a steer is built, which a transcript holds.

A steer's id is also its message id, so "was it delivered?" is a question about the transcript,
answered the same before and after a restart: ``steer_probe_<chat_id>`` (the prober's hand-off),
``steer_ctx_<chat_id>`` (the graph's context), ``steer_study_<chat_id>`` (the material of the note
a "Study this" session studies), ``steer_goal_<chat_id>`` (the goal a session continues) and
``steer_<job_id>`` (a finished job; job ids start ``job_``, so no job steer can take another
kind's id). The classroom and the workbench
both deliver steers; this is the one rule they share: a steer already in the transcript is never
appended again (``claim_steers``), and re-saving it replaces itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from studyhall.core.contracts.chat import DataPart, Message, SteerKind, SteerPart, TextPart


def probe_steer_id(chat_id: str) -> str:
    return f"steer_probe_{chat_id}"


def context_steer_id(chat_id: str) -> str:
    return f"steer_ctx_{chat_id}"


def study_steer_id(chat_id: str) -> str:
    return f"steer_study_{chat_id}"


def goal_steer_id(chat_id: str) -> str:
    return f"steer_goal_{chat_id}"


def job_steer_id(job_id: str) -> str:
    return f"steer_{job_id}"


def steer_message(
    steer_id: str,
    kind: SteerKind,
    text: str,
    at: datetime,
    *,
    data_name: str | None = None,
    data: Mapping[str, Any] | None = None,
) -> Message:
    """A steer: the text is what the model reads; the optional data part is for the UI."""
    parts: list[SteerPart | TextPart | DataPart] = [
        SteerPart(steer_id=steer_id, kind=kind),
        TextPart(text=text),
    ]
    if data is not None:
        parts.append(DataPart(name=data_name or kind, data=dict(data)))
    return Message(id=steer_id, role="user", parts=tuple(parts), created_at=at)


def steer_part(message: Message) -> SteerPart | None:
    """The marker that makes ``message`` a steer; None for any other message."""
    return next((p for p in message.parts if isinstance(p, SteerPart)), None)


def delivered_steer_ids(messages: Iterable[Message]) -> set[str]:
    return {marker.steer_id for m in messages if (marker := steer_part(m)) is not None}


def is_delivered(messages: Iterable[Message], steer_id: str) -> bool:
    return steer_id in delivered_steer_ids(messages)


def claim_steers(messages: Sequence[Message], queued: Iterable[Message]) -> list[Message]:
    """The queued steers still to deliver: not in the transcript, each id once, queue order."""
    seen = delivered_steer_ids(messages)
    claimed: list[Message] = []
    for message in queued:
        steer = steer_part(message)
        if steer is None or steer.steer_id in seen:
            continue
        seen.add(steer.steer_id)
        claimed.append(message)
    return claimed
