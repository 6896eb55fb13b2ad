"""The labeler's session title: what it is shown, and how its answer becomes a clean title."""

from __future__ import annotations

from collections.abc import Sequence

from studyhall.core.contracts.chat import Message, SteerPart, TextPart
from studyhall.core.contracts.models import ProviderMessage

PROMPT_NAME = "labeler.md"
MAX_TITLE = 60
_EXCERPT_CHARS = 1500


def title_messages(base: str, topic: str | None, messages: Sequence[Message]) -> list[ProviderMessage]:
    """System prompt plus an excerpt of the session's opening (learner and teacher text only)."""
    lines: list[str] = []
    if topic:
        lines.append(f"Topic: {topic}")
    for message in messages:
        if any(isinstance(p, SteerPart) for p in message.parts):
            continue
        text = " ".join(p.text for p in message.parts if isinstance(p, TextPart)).strip()
        if text:
            who = "Learner" if message.role == "user" else "Tutor"
            lines.append(f"{who}: {text}")
    excerpt = "\n".join(lines)[:_EXCERPT_CHARS]
    return [{"role": "system", "content": base.strip()}, {"role": "user", "content": excerpt}]


def clean_title(raw: str) -> str | None:
    """First non-empty line, unquoted, trimmed to ``MAX_TITLE``; None when nothing usable."""
    line = next((ln.strip() for ln in raw.splitlines() if ln.strip()), "")
    line = line.removeprefix("Title:").removeprefix("title:").strip()
    line = line.strip("\"'`*#").strip().rstrip(".").strip()
    if not line:
        return None
    if len(line) > MAX_TITLE:
        line = line[: MAX_TITLE - 1].rstrip() + "…"
    return line
