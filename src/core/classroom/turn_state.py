"""Where a transcript stands between turns: what waits for the learner, what is owed a reply,
and the turns that ended early.

Pure functions over the record, used by the turn pipeline to decide what a request may do.

A turn that ended early is kept as UI-only data parts (never sent to a provider), so a reload
shows what the learner had read and what went wrong: ``incomplete`` follows a text part the
stream broke off in (or a crash interrupted); ``turn-failed`` on the record's last message holds
the failure the turn ended with (``kind``, ``role``, ``message``, ``action``). Try again resumes
from the last complete point: ``resume_point`` drops the marks and the cut text, and the new
answer keeps the message's id, so it replaces the partial message instead of following it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from studyhall.core.classroom.record_messages import CLIENT_TOOL_NAMES
from studyhall.core.contracts.chat import DataPart, Message, Part, SteerPart, TextPart, ToolCallPart

SKIPPED = "The learner did not answer this; they wrote a message instead."
INTERRUPTED = "Interrupted before it produced a result."


NOT_SHOWN = "nothing was shown to the learner"  # in every refusal of a call's arguments


def was_rejected(part: ToolCallPart) -> bool:
    """A call refused when it was made (bad arguments, not JSON): the learner never saw it, so
    it shows nowhere and drives nothing. A skipped question also ends as an error, but it was
    shown."""
    return part.state == "output-error" and part.output is None and NOT_SHOWN in (part.error or "")


def pending_client_calls(message: Message) -> list[ToolCallPart]:
    """The questions in ``message`` still waiting for the learner."""
    return [
        p
        for p in message.parts
        if isinstance(p, ToolCallPart) and p.state == "input-available" and p.name in CLIENT_TOOL_NAMES
    ]


def pending_questions(messages: Sequence[Message]) -> list[tuple[Message, ToolCallPart]]:
    return [(m, p) for m in messages for p in pending_client_calls(m)]


def owes_reply(messages: Sequence[Message]) -> bool:
    """True when the model should speak next: the tail is the learner's (or a steer), the
    last assistant message ended on tool results rather than on words to the learner, or it
    was cut off (a broken stream, a failure, a crash: below)."""
    if not messages:
        return False
    last = messages[-1]
    if last.role == "user":
        return True
    if pending_client_calls(last):
        return False
    if is_cut(last):
        return True
    content = [p for p in last.parts if not isinstance(p, (DataPart, SteerPart))]
    return not content or isinstance(content[-1], ToolCallPart)


def close_dangling(messages: Sequence[Message]) -> list[Message]:
    """Before a new learner message: unanswered questions become skipped, and server calls
    left without a result (a crash) become interrupted. Returns only the changed messages."""
    changed: list[Message] = []
    for message in messages:
        parts = []
        touched = False
        for part in message.parts:
            if isinstance(part, ToolCallPart) and part.state == "input-available":
                touched = True
                if part.name in CLIENT_TOOL_NAMES:
                    part = part.model_copy(update={"state": "output-error", "error": SKIPPED})
                else:
                    part = part.model_copy(update={"state": "interrupted", "error": INTERRUPTED})
            parts.append(part)
        if touched:
            changed.append(message.model_copy(update={"parts": tuple(parts)}))
    return changed


# --- turns that ended early ------------------------------------------------------------------

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
