"""Literal transcript pieces (user and assistant messages, tool-call parts) for session-engine tests."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from studyhall.core.contracts.chat import DataPart, Message, TextPart, ToolCallPart

AT = datetime(2025, 1, 1, 9, 0, tzinfo=UTC)


def user(mid: str, text: str) -> Message:
    return Message(id=mid, role="user", parts=(TextPart(text=text),), created_at=AT)


def assistant(mid: str, *parts: Any, agent: str = "prober") -> Message:
    return Message(id=mid, role="assistant", parts=tuple(parts), created_at=AT, agent=agent)


def text(t: str) -> TextPart:
    return TextPart(text=t)


def call(cid: str, name: str, state: str = "output-available", output: Any = None,
         error: str | None = None, **args: Any) -> ToolCallPart:
    return ToolCallPart(tool_call_id=cid, name=name, input=args, state=state, output=output,
                        error=error)


def data(name: str, **values: Any) -> DataPart:
    return DataPart(name=name, data=values)


PROBE_ARGS = {"floor": "sets", "ceiling": "proofs", "goal": "pass the exam", "summary": "keen"}
