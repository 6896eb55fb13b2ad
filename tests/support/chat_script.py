"""Fixed scripts for ``FunctionChatModel``: each call of a role plays that role's next reply.

A reply is one of: a list of ``ModelEvent``s (build them with ``say`` and ``tool``); an exception
(raised); a ``str`` (said as text); any other JSON value (said as its JSON text, the way a
structured answer arrives). ``from_script`` reads the ``STUDYHALL_SCRIPT`` entry format instead,
with the production parser and error messages.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from studyhall.adapters.llm.litellm_errors import CallTarget, model_error
from studyhall.adapters.llm.script import ScriptEntry, parse_script
from studyhall.adapters.llm.stream_assembly import parse_arguments
from studyhall.core.contracts.chat import Usage
from studyhall.core.contracts.models import (
    FinishEvent,
    ModelEvent,
    ModelRequest,
    StreamedText,
    ToolCallEvent,
    UsageEvent,
)
from studyhall.core.errors import ModelNotConfigured

from tests.support.chat_model import FunctionChatModel

Reply = Any  # list[ModelEvent] | BaseException | str | a JSON value; see the module docstring
_PIECES = re.compile(r"\S+\s*|\s+")


def say(*chunks: str, calls: Sequence[ToolCallEvent] = (), tokens: int | None = 5) -> list[ModelEvent]:
    """A complete answer: the text in the given chunks, then ``calls``, usage and finish."""
    events: list[ModelEvent] = [StreamedText(c) for c in chunks]
    events.extend(calls)
    events.append(UsageEvent(Usage(input_tokens=tokens, output_tokens=tokens), model="fake/m"))
    events.append(FinishEvent("tool_calls" if calls else "stop"))
    return events


def tool(name: str, args: dict[str, Any] | None = None, cid: str = "", raw: str = "") -> ToolCallEvent:
    return ToolCallEvent(id=cid or f"call_{name}", name=name, arguments=args, raw=raw or json.dumps(args))


def said(text: str) -> list[ModelEvent]:
    """``text`` streamed word by word, as a provider sends it."""
    events: list[ModelEvent] = [StreamedText(piece) for piece in _PIECES.findall(text)]
    events.append(UsageEvent(Usage(input_tokens=100, output_tokens=20, cost_usd=None)))
    events.append(FinishEvent("stop"))
    return events


def _is_events(reply: Reply) -> bool:
    return isinstance(reply, list) and bool(reply) and all(
        isinstance(e, (StreamedText, ToolCallEvent, UsageEvent, FinishEvent)) for e in reply
    )


def events_of(reply: Reply) -> list[ModelEvent]:
    """The events a reply streams; an exception reply is raised."""
    if isinstance(reply, BaseException):
        raise reply
    if _is_events(reply):
        return list(reply)
    return said(reply if isinstance(reply, str) else json.dumps(reply))


class Replies:
    """An answer function: each role plays its own list in order; roles without one share
    ``shared``. ``queues`` may be refilled mid-test. Out of replies: ``ModelNotConfigured``."""

    def __init__(self, *shared: Reply, **by_role: Sequence[Reply]) -> None:
        self.shared = list(shared)
        self.queues = {role: list(replies) for role, replies in by_role.items()}

    def __call__(self, request: ModelRequest) -> list[ModelEvent]:
        role = request.role
        queue = self.queues.get(role, self.shared)
        if not queue:
            left = " left" if role in self.queues else ""
            raise ModelNotConfigured(
                f"The test model has no scripted answer{left} for the {role} role.", role=role
            )
        return events_of(queue.pop(0))


def scripted(*shared: Reply, **by_role: Sequence[Reply]) -> FunctionChatModel:
    """A model playing fixed replies (see ``Replies``); ``model.fn.queues`` holds what is left."""
    return FunctionChatModel(Replies(*shared, **by_role))


def _entry_events(entry: ScriptEntry) -> list[ModelEvent] | BaseException:
    if entry.error is not None:
        return model_error(entry.error, CallTarget(role=entry.role, model="test", provider="test"))
    events: list[ModelEvent] = [StreamedText(p) for p in _PIECES.findall(entry.answer_text or "")]
    for k, call in enumerate(entry.tool_calls):
        if isinstance(call.arguments, dict):
            events.append(ToolCallEvent(entry.tool_call_id(k), call.name, call.arguments))
        else:
            args = parse_arguments(call.arguments)
            raw = "" if args is not None else call.arguments
            events.append(ToolCallEvent(entry.tool_call_id(k), call.name, args, raw))
    events.append(UsageEvent(Usage(), model="test"))
    events.append(FinishEvent(entry.finish or ("tool_calls" if entry.tool_calls else "stop")))
    return events


def from_script(script: Mapping[str, Any]) -> FunctionChatModel:
    """A model answering a ``STUDYHALL_SCRIPT``-shaped mapping (validated by the app's parser)."""
    parsed = parse_script(dict(script), "test script")
    return scripted(**{role: [_entry_events(e) for e in entries] for role, entries in parsed.items()})
