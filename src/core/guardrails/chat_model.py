"""``GuardedChatModel``: the ``ChatModel`` decorator every role's calls go through.

Outgoing, it scrubs every message (system, user, assistant and tool text, tool-call
arguments) with one placeholder scope per call; coming back, it restores the placeholders in
text deltas (holding back a placeholder split across deltas) and in tool-call arguments, so
the learner reads their own words while the provider never receives them. It also rates the
call's risk for the audit row. Scrubbing follows ``scrub_for(role)`` (on for hosted
providers, a setting for a local server); a message carrying ``AS_WRITTEN`` — text the
learner asked to send as written — is never scrubbed, and the mark never leaves the process.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from studyhall.core.contracts.models import (
    AS_WRITTEN_KEY,
    ModelEvent,
    ModelRequest,
    ProviderMessage,
    StreamedText,
    ToolCallEvent,
)
from studyhall.core.contracts.settings import ModelRole
from studyhall.core.guardrails.material import holds_material
from studyhall.core.guardrails.restore_stream import StreamRestorer
from studyhall.core.guardrails.scrubber import Placeholders, detect, scrub
from studyhall.core.ports.models import ChatModel

AS_WRITTEN = AS_WRITTEN_KEY
ScrubPolicy = Callable[[ModelRole], bool]


def without_marks(message: ProviderMessage) -> ProviderMessage:
    return {k: v for k, v in message.items() if k != AS_WRITTEN}


def _texts(message: ProviderMessage) -> Iterator[str]:
    content = message.get("content")
    if isinstance(content, str):
        yield content
    elif isinstance(content, list):
        yield from (p["text"] for p in content if isinstance(p, dict)
                    and isinstance(p.get("text"), str))
    for call in message.get("tool_calls") or ():
        arguments = (call.get("function") or {}).get("arguments") if isinstance(call, dict) else None
        if isinstance(arguments, str):
            yield arguments


def _scrub_value(value: Any, scope: Placeholders) -> Any:
    if isinstance(value, str):
        return scrub(value, scope).text
    if isinstance(value, list):
        return [_scrub_value(v, scope) for v in value]
    if isinstance(value, dict):
        return {k: _scrub_value(v, scope) for k, v in value.items()}
    return value


def _scrub_arguments(arguments: str, scope: Placeholders) -> str:
    try:
        parsed = json.loads(arguments)
    except ValueError:
        return scrub(arguments, scope).text  # placeholders hold no quote: the text stays JSON-ish
    return json.dumps(_scrub_value(parsed, scope), ensure_ascii=False, separators=(",", ":"))


def scrub_message(message: ProviderMessage, scope: Placeholders) -> ProviderMessage:
    out = without_marks(message)
    content = out.get("content")
    if isinstance(content, str):
        out["content"] = scrub(content, scope).text
    elif isinstance(content, list):
        out["content"] = [
            {**p, "text": scrub(p["text"], scope).text}
            if isinstance(p, dict) and isinstance(p.get("text"), str) else p
            for p in content
        ]
    calls = out.get("tool_calls")
    if calls:
        out["tool_calls"] = [_scrub_call(c, scope) for c in calls]
    return out


def _scrub_call(call: Any, scope: Placeholders) -> Any:
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict) or not isinstance(function.get("arguments"), str):
        return call
    return {**call, "function": {**function,
                                 "arguments": _scrub_arguments(function["arguments"], scope)}}


def _restore_value(value: Any, scope: Placeholders) -> Any:
    if isinstance(value, str):
        return scope.restore(value)
    if isinstance(value, list):
        return [_restore_value(v, scope) for v in value]
    if isinstance(value, dict):
        return {k: _restore_value(v, scope) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class Assessment:
    messages: tuple[ProviderMessage, ...]
    scope: Placeholders
    risk: str


def guard(request: ModelRequest, scrub_on: bool) -> Assessment:
    """The messages to send, the placeholders to restore, and the call's risk level."""
    scope = Placeholders()
    for message in request.messages:
        for text in _texts(message):
            scope.reserve(text)
    out: list[ProviderMessage] = []
    sent_pii = material = False
    for message in request.messages:
        texts = list(_texts(message))
        material = material or any(holds_material(t) for t in texts)
        if scrub_on and not message.get(AS_WRITTEN):
            out.append(scrub_message(message, scope))
        else:
            sent_pii = sent_pii or any(detect(t) for t in texts)
            out.append(without_marks(message))
    flags = [name for name, on in (("pii-scrubbed", bool(scope)), ("pii-sent", sent_pii),
                                   ("material-included", material)) if on]
    return Assessment(tuple(out), scope, "+".join(flags) or "low")


class GuardedChatModel:
    def __init__(self, inner: ChatModel, scrub_for: ScrubPolicy) -> None:
        self._inner = inner
        self._scrub_for = scrub_for

    @property
    def inner(self) -> ChatModel:
        """The model the guarded calls reach (the provider adapter)."""
        return self._inner

    @property
    def scrub_for(self) -> ScrubPolicy:
        return self._scrub_for

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        checked = guard(request, self._scrub_for(request.role))
        scope = checked.scope
        # Structured answers are JSON text: restored values must be JSON-escaped in them.
        restorer = StreamRestorer(scope, json_escaped=request.response_schema is not None)
        outgoing = replace(request, messages=checked.messages, risk=checked.risk)
        async for event in self._inner.stream(outgoing):
            if isinstance(event, StreamedText):
                text = restorer.feed(event.text)
                if text:
                    yield StreamedText(text)
                continue
            held = restorer.flush()  # text comes before tool calls, usage and finish
            if held:
                yield StreamedText(held)
            if isinstance(event, ToolCallEvent) and scope:
                event = replace(event, arguments=_restore_value(event.arguments, scope),
                                raw=scope.restore(event.raw, json_escaped=True))
            yield event
        held = restorer.flush()
        if held:
            yield StreamedText(held)
