"""``ScriptedChatModel``: an in-process ``ChatModel`` fake for fast unit tests (no litellm import).

It answers from the same entries as ``STUDYHALL_SCRIPT`` (validated the same way) and records
every request it received, so a test can assert on what the agent loop sent. The app itself
never uses it: scripted runs of the app go through ``LitellmChatModel`` + ``ChatScript`` so the
production adapter is exercised.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Mapping
from typing import Any

from studyhall.adapters.llm.litellm_errors import CallTarget, model_error
from studyhall.adapters.llm.script import ChatScript, ScriptEntry, parse_script
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

_PIECES = re.compile(r"\S+\s*|\s+")


class ScriptedChatModel:
    def __init__(self, script: Mapping[str, Any] | ChatScript, *, model: str = "scripted") -> None:
        self._script: ChatScript | None = None
        self._queues: dict[str, list[ScriptEntry]] = {}
        if isinstance(script, ChatScript):
            self._script = script
        else:
            parsed = parse_script(dict(script), "scripted model")
            self._queues = {role: list(entries) for role, entries in parsed.items()}
        self._model = model
        self.requests: list[ModelRequest] = []

    def _take(self, role: str) -> ScriptEntry:
        if self._script is not None:
            return self._script.next(role)
        queue = self._queues.get(role)
        if not queue:
            state = "has no answer left" if role in self._queues else "has no answers"
            raise ModelNotConfigured(f"The scripted model {state} for the {role} role.", role=role)
        return queue.pop(0)

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        self.requests.append(request)
        entry = self._take(request.role)
        if entry.error is not None:
            target = CallTarget(role=request.role, model=self._model, provider="scripted")
            raise model_error(entry.error, target)
        text = entry.answer_text
        if text:
            for piece in _PIECES.findall(text):
                yield StreamedText(text=piece)
        for k, call in enumerate(entry.tool_calls):
            if isinstance(call.arguments, dict):
                args: dict[str, Any] | None = call.arguments
                raw = ""
            else:
                args = parse_arguments(call.arguments)
                raw = "" if args is not None else call.arguments
            yield ToolCallEvent(id=entry.tool_call_id(k), name=call.name, arguments=args, raw=raw)
        yield UsageEvent(usage=Usage(), model=self._model)
        yield FinishEvent(reason=entry.finish or ("tool_calls" if entry.tool_calls else "stop"))
