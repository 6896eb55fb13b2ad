"""Verify, never one-shot: ask a sub-agent for a result, check it, feed problems back, retry.

``build_verified`` runs at most ``attempts`` rounds of produce -> read -> verify. A round whose
answer cannot be read (no document, bad JSON) or fails verification (console errors, a blank
render, unknown graph nodes) shows the model its own answer and every problem, and asks for
the whole corrected result. After the last round it raises ``JobFailed`` with the last
problems: a result that never passed is never delivered as if fine.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from studyhall.core.contracts.models import (
    ModelRequest,
    ProviderMessage,
    StreamedText,
    ToolCallEvent,
)
from studyhall.core.contracts.settings import ModelRole
from studyhall.core.errors import JobFailed
from studyhall.core.ports.models import ChatModel

T = TypeVar("T")
ATTEMPTS = 3
ECHO_CHARS = 60_000  # what of a failed answer is shown back (a huge one is cut)


@dataclass(frozen=True)
class Built(Generic[T]):
    value: T
    attempts: int
    text: str  # the answer that passed
    history: tuple[tuple[str, ...], ...] = ()  # the problems of each failed round


async def collect_text(model: ChatModel, request: ModelRequest) -> str:
    """The whole text of one completion (a structured answer sent as a tool call counts)."""
    parts: list[str] = []
    fallback = ""
    async for event in model.stream(request):
        if isinstance(event, StreamedText):
            parts.append(event.text)
        elif isinstance(event, ToolCallEvent) and not fallback:
            fallback = json.dumps(event.arguments) if event.arguments is not None else event.raw
    return "".join(parts) or fallback


def feedback(problems: list[str], fix: str) -> str:
    lines = ["That result failed its checks:"]
    lines += [f"- {p}" for p in problems]
    lines.append(fix)
    return "\n".join(lines)


async def build_verified(
    model: ChatModel,
    role: ModelRole,
    messages: list[ProviderMessage],
    *,
    read: Callable[[str], T],
    verify: Callable[[T], Awaitable[list[str]]],
    what: str,
    fix: str,
    attempts: int = ATTEMPTS,
    schema: dict[str, Any] | None = None,
) -> Built[T]:
    """Produce, check, correct; ``read`` raises ``ValueError`` with a fixable message."""
    conversation = list(messages)
    history: list[tuple[str, ...]] = []
    problems: list[str] = []
    for attempt in range(1, attempts + 1):
        request = ModelRequest(role=role, messages=tuple(conversation), response_schema=schema)
        text = await collect_text(model, request)
        try:
            value = read(text)
            problems = await verify(value)
        except ValueError as e:
            problems = [str(e)]
        if not problems:
            return Built(value, attempt, text, tuple(history))
        history.append(tuple(problems))
        shown = text if len(text) <= ECHO_CHARS else text[:ECHO_CHARS] + "\n[… cut]"
        conversation += [
            {"role": "assistant", "content": shown or "(empty answer)"},
            {"role": "user", "content": feedback(problems, fix)},
        ]
    listed = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else "")
    raise JobFailed(
        f"The {what} failed its checks {attempts} time{'s' if attempts != 1 else ''} and was not "
        f"delivered. Last problems: {listed}",
        attempts=attempts, problems=problems,
    )
