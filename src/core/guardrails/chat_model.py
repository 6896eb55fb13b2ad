"""``GuardedChatModel``: the ``ChatModel`` decorator every role's calls go through.

Outgoing, it scrubs every message (system, user, assistant and tool text, tool-call
arguments) with one placeholder scope per call; coming back, it restores the placeholders in
text deltas (holding back a placeholder split across deltas) and in tool-call arguments, so
the learner reads their own words while the provider never receives them. It also rates the
call's risk for the audit row. Scrubbing follows ``scrub_for(role)``: every call to a hosted
provider; a call to a model served on the learner's own machine (Ollama, LM Studio, a localhost
server) only when Settings says so (``SettingsScrubPolicy``, at the end). A message carrying
``AS_WRITTEN`` — text the learner asked to send as written — is never scrubbed, and the mark
never leaves the process.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

from studyhall.core.contracts.models import (
    AS_WRITTEN_KEY,
    ModelEvent,
    ModelRequest,
    ProviderMessage,
    StreamedText,
    ToolCallEvent,
)
from studyhall.core.contracts.settings import LOCAL_PROVIDERS, ModelRole, RoleModel, Settings
from studyhall.core.guardrails.material import holds_material
from studyhall.core.guardrails.scrubber import Placeholders, StreamRestorer, detect, scrub
from studyhall.core.ports.models import ChatModel
from studyhall.core.ports.storage import SettingsStore

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


# --- which calls are scrubbed ------------------------------------------------------------------

_LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "0.0.0.0"})


def is_local(model: RoleModel) -> bool:
    """True when the prompt never leaves the machine: a local provider, or a server address
    on the loopback interface. A LAN or remote address counts as hosted."""
    if model.model.split("/", 1)[0] in LOCAL_PROVIDERS and model.api_base is None:
        return True
    if model.api_base is None:
        return False
    host = (urlsplit(model.api_base).hostname or "").lower()
    return host in _LOOPBACK_HOSTS or host.startswith("127.")


def scrubs(settings: Settings, role: ModelRole) -> bool:
    return not is_local(settings.model_for(role)) or settings.privacy.scrub_local


class SettingsScrubPolicy:
    """``scrubs`` over the settings as saved at each call, so a Privacy change applies to the
    next call (the composition root hands this to ``GuardedChatModel``)."""

    def __init__(self, settings: SettingsStore) -> None:
        self._settings = settings

    def __call__(self, role: ModelRole) -> bool:
        return scrubs(self._settings.load(), role)
