"""Turns that ended early, as the record keeps them: text cut off mid-stream, and why a turn
failed — so a reload shows what the learner had read and what went wrong.

Both are UI-only data parts (never sent to a provider). ``incomplete`` follows a text part the
stream broke off in (or a crash interrupted); ``turn-failed`` on the record's last message holds
the failure the turn ended with (``kind``, ``role``, ``message``, ``action``). Try again resumes
from the last complete point: ``resume_point`` drops the marks and the cut text, and the new
answer keeps the message's id, so it replaces the partial message instead of following it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from studyhall.core.contracts.chat import DataPart, Message, Part, TextPart

INCOMPLETE = "incomplete"
TURN_FAILED = "turn-failed"
_MARKS = frozenset({INCOMPLETE, TURN_FAILED})


def _is_mark(part: Part, name: str | None = None) -> bool:
    return isinstance(part, DataPart) and (part.name == name if name else part.name in _MARKS)


def with_cut_text(message: Message, text: str) -> Message:
    """``message`` with ``text`` appended as a part marked incomplete (a snapshot mid-stream)."""
    if not text:
        return message
    parts = (*message.parts, TextPart(text=text), DataPart(name=INCOMPLETE, data={}))
    return message.model_copy(update={"parts": parts})


def mark_cut(message: Message) -> Message:
    """``message`` with its last text part marked incomplete (no change if it ends otherwise)."""
    if not message.parts or not isinstance(message.parts[-1], TextPart):
        return message
    parts = (*message.parts, DataPart(name=INCOMPLETE, data={}))
    return message.model_copy(update={"parts": parts})


def with_failure(message: Message, failure: Mapping[str, Any]) -> Message:
    """``message`` carrying ``failure`` (replacing an older one)."""
    parts = [p for p in message.parts if not _is_mark(p, TURN_FAILED)]
    parts.append(DataPart(name=TURN_FAILED, data=dict(failure)))
    return message.model_copy(update={"parts": tuple(parts)})


def without_failure(message: Message) -> Message:
    parts = tuple(p for p in message.parts if not _is_mark(p, TURN_FAILED))
    return message if len(parts) == len(message.parts) else message.model_copy(
        update={"parts": parts})


def is_cut(message: Message) -> bool:
    """True for an assistant message a stream break, a failure or a crash left unfinished."""
    return message.role == "assistant" and any(_is_mark(p) for p in message.parts)


def has_failure(message: Message) -> bool:
    return any(_is_mark(p, TURN_FAILED) for p in message.parts)


def failure(messages: Sequence[Message]) -> dict[str, Any] | None:
    """Why the last turn failed, while nothing came after it (None once the learner moved on
    or a later turn answered)."""
    if not messages:
        return None
    for part in messages[-1].parts:
        if isinstance(part, DataPart) and part.name == TURN_FAILED:
            return dict(part.data)
    return None


def resume_point(message: Message) -> Message:
    """``message`` at its last complete point: every text part marked incomplete and every mark
    removed; what completed before the break (text, answered calls, usage) stays."""
    parts: list[Part] = []
    for part in message.parts:
        if _is_mark(part, INCOMPLETE):
            if parts and isinstance(parts[-1], TextPart):
                parts.pop()
            continue
        if not _is_mark(part):
            parts.append(part)
    return message.model_copy(update={"parts": tuple(parts)})
