"""Reading tool calls out of a transcript, oldest first: the evidence every derivation folds."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from studyhall.core.contracts.chat import Message, ToolCallPart


def tool_calls(messages: Iterable[Message], name: str | None = None) -> Iterator[ToolCallPart]:
    for message in messages:
        for part in message.parts:
            if isinstance(part, ToolCallPart) and (name is None or part.name == name):
                yield part


def approves_plan(part: ToolCallPart) -> bool:
    """A ``plan_init`` call the learner approved: its output is ``{"approve": true, ...}``."""
    output: Any = part.output
    return (
        part.name == "plan_init"
        and part.state == "output-available"
        and isinstance(output, dict)
        and output.get("approve") is True
    )
