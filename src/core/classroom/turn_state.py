"""Where a transcript stands between turns: what waits for the learner, what is owed a reply.

Pure functions over the record, used by the turn pipeline to decide what a request may do.
"""

from __future__ import annotations

from collections.abc import Sequence

from studyhall.core.classroom.cut_turns import is_cut
from studyhall.core.classroom.record_messages import CLIENT_TOOL_NAMES
from studyhall.core.contracts.chat import DataPart, Message, SteerPart, ToolCallPart

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
    was cut off (a broken stream, a failure, a crash: ``cut_turns``)."""
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
