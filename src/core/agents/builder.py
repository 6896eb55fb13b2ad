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

from studyhall.core.agents.schema_bounds import bounded
from studyhall.core.agents.structured import CUT_PROBLEM, CUT_REASONS
from studyhall.core.contracts.models import (
    FinishEvent,
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
    """The whole text of one completion (a structured answer sent as a tool call counts);
    ``ValueError`` when it was cut off (at its token cap, or by the repetition guard): a cut
    answer is never read as if whole."""
    parts: list[str] = []
    fallback = ""
    reason = "stop"
    async for event in model.stream(request):
        if isinstance(event, StreamedText):
            parts.append(event.text)
        elif isinstance(event, ToolCallEvent) and not fallback:
            fallback = json.dumps(event.arguments) if event.arguments is not None else event.raw
        elif isinstance(event, FinishEvent):
            reason = event.reason
    if reason in CUT_REASONS:
        raise CutAnswer("".join(parts) or fallback)
    return "".join(parts) or fallback


class CutAnswer(ValueError):
    """An answer that never finished; ``text`` is what arrived."""

    def __init__(self, text: str) -> None:
        super().__init__(CUT_PROBLEM)
        self.text = text


class MisshapenAnswer(ValueError):
    """An answer that is not in the shape asked for. ``str()`` is what the model is told (the
    field and the rule it broke); ``for_learner`` is what the window may say: no schema, no
    JSON, no field paths."""

    def __init__(self, for_model: str, for_learner: str) -> None:
        super().__init__(for_model)
        self.for_learner = for_learner


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
    told: list[str] = []  # the same problems, as the learner may read them
    schema = bounded(schema) if schema is not None else None
    for attempt in range(1, attempts + 1):
        request = ModelRequest(role=role, messages=tuple(conversation), response_schema=schema)
        try:
            text = await collect_text(model, request)
        except CutAnswer as e:
            text, problems, told = e.text, [str(e)], ["the model's answer was cut off"]
        else:
            try:
                value = read(text)
                problems = told = await verify(value)
            except MisshapenAnswer as e:
                problems, told = [str(e)], [e.for_learner]
            except ValueError as e:
                problems = told = [str(e)]
            if not problems:
                return Built(value, attempt, text, tuple(history))
        history.append(tuple(problems))
        shown = text if len(text) <= ECHO_CHARS else text[:ECHO_CHARS] + "\n[… cut]"
        conversation += [
            {"role": "assistant", "content": shown or "(empty answer)"},
            {"role": "user", "content": feedback(problems, fix)},
        ]
    listed = "; ".join(told[:5]) + (f"; and {len(told) - 5} more" if len(told) > 5 else "")
    raise JobFailed(
        f"The {what} failed its checks {attempts} time{'s' if attempts != 1 else ''} and was not "
        f"delivered. Last problems: {listed}",
        attempts=attempts, problems=problems,
    )
