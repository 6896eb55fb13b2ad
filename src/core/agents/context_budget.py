"""The history an agent is shown, fitted to its model's context window: the oldest messages go
first, but never the plan, the open question or the learner's newest message; what was left
out is told in a short note (the learner's own words, first line each). Tokens are estimated
from characters (no tokenizer to download; ~3.5 characters a token errs on the safe side).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from studyhall.core.classroom.record_messages import CLIENT_TOOL_NAMES, to_provider_messages
from studyhall.core.contracts.chat import Message, TextPart, ToolCallPart

CHARS_PER_TOKEN = 3.5
PER_MESSAGE = 6  # a chat template's tokens around each message
_NOTE_LINES = 5
_NOTE_CHARS = 100
NOTE_TOKENS = 60 + _NOTE_LINES * _NOTE_CHARS // 3  # room the note on left-out messages takes


def estimate_tokens(text: str) -> int:
    return int(len(text) / CHARS_PER_TOKEN) + 1


def reply_reserve(context_tokens: int) -> int:
    """Tokens left free for the answer itself."""
    return min(2_048, context_tokens // 4)


def message_tokens(message: Message) -> int:
    return sum(estimate_tokens(json.dumps(m, ensure_ascii=False)) + PER_MESSAGE
               for m in to_provider_messages([message]))


@dataclass(frozen=True)
class Fitted:
    messages: tuple[Message, ...]
    dropped: tuple[Message, ...] = ()

    @property
    def note(self) -> str:
        """What the model is told about the messages it no longer sees."""
        said = [_first_line(m) for m in self.dropped if m.role == "user"]
        said = [s for s in said if s]
        # Their opening words (often the goal) and the most recent ones.
        said = said if len(said) <= _NOTE_LINES else [said[0], *said[1 - _NOTE_LINES:]]
        head = (f"## Earlier in this session\n{len(self.dropped)} older messages are left "
                "out to fit your context window.")
        lines = [head]
        if said:
            lines.append("The learner said earlier: " + " / ".join(said))
        return "\n".join(lines)


def _first_line(message: Message) -> str:
    text = next((p.text for p in message.parts if isinstance(p, TextPart) and p.text.strip()), "")
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= _NOTE_CHARS else line[: _NOTE_CHARS - 1] + "…"


def _kept(messages: Sequence[Message]) -> set[int]:
    """Positions that are never dropped: the newest message, the learner's newest, the newest
    open question (or the one just answered) and the approved plan."""
    keep = {len(messages) - 1} if messages else set()
    last_user = next((i for i in range(len(messages) - 1, -1, -1)
                      if messages[i].role == "user"), None)
    if last_user is not None:
        keep.add(last_user)
    for name in (*sorted(CLIENT_TOOL_NAMES - {"plan_init"}), "plan_init"):
        for i in range(len(messages) - 1, -1, -1):
            parts = [p for p in messages[i].parts
                     if isinstance(p, ToolCallPart) and p.name == name]
            if name == "plan_init":
                parts = [p for p in parts if p.state == "output-available"]
            if parts:
                keep.add(i)
                break
    return keep


def fit_history(messages: Sequence[Message], *, budget: int | None) -> Fitted:
    """``messages`` (oldest first) within ``budget`` tokens, oldest dropped first; None: all."""
    if budget is None:
        return Fitted(tuple(messages))
    sizes = [message_tokens(m) for m in messages]
    total = sum(sizes)
    if total <= budget:
        return Fitted(tuple(messages))
    keep = _kept(messages)
    dropped: set[int] = set()
    for i in range(len(messages)):
        if total <= budget:
            break
        if i not in keep:
            dropped.add(i)
            total -= sizes[i]
    return Fitted(tuple(m for i, m in enumerate(messages) if i not in dropped),
                  tuple(m for i, m in enumerate(messages) if i in dropped))
