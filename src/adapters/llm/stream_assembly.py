"""Turn a provider's streamed chunks (OpenAI chunk shape, as litellm yields them) into events.

Text is passed on as it arrives. Tool calls arrive in fragments keyed by ``index`` — the id and
name usually in the first fragment, the JSON arguments spread over many — and are handed out
whole at the end, with their arguments parsed. Arguments that do not parse as a JSON object
keep their raw text so the agent loop can tell the model what went wrong.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from studyhall.core.contracts.models import StreamedText, ToolCallEvent


def _get(obj: Any, name: str) -> Any:
    """Read a field from a litellm object or a plain dict alike."""
    if obj is None:
        return None
    if isinstance(obj, dict):
        return obj.get(name)
    return getattr(obj, name, None)


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


@dataclass
class _Slot:
    index: int | None
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


def parse_arguments(raw: str) -> dict[str, Any] | None:
    """The arguments as a JSON object; ``{}`` for an empty string; None when not an object."""
    if not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


class StreamAssembler:
    """Feed chunks in order; read text deltas back per chunk and the tool calls at the end."""

    def __init__(self, new_id: Callable[[], str]) -> None:
        self._new_id = new_id
        self._slots: list[_Slot] = []
        self._by_index: dict[int, _Slot] = {}
        self.finish_reason: str | None = None
        self.input_tokens: int | None = None
        self.output_tokens: int | None = None
        self.reported_cost: float | None = None
        self.model: str | None = None

    def feed(self, chunk: Any) -> list[StreamedText]:
        out: list[StreamedText] = []
        self.model = _get(chunk, "model") or self.model
        self._read_usage(_get(chunk, "usage"))
        for choice in _get(chunk, "choices") or ():
            if (_get(choice, "index") or 0) != 0:
                continue  # we only ever ask for one choice
            reason = _get(choice, "finish_reason")
            if reason:
                self.finish_reason = str(reason)
            delta = _get(choice, "delta")
            content = _get(delta, "content")
            if isinstance(content, str) and content:
                out.append(StreamedText(text=content))
            for fragment in _get(delta, "tool_calls") or ():
                self._add_fragment(fragment)
        return out

    @property
    def calls_started(self) -> bool:
        """True once a tool call began arriving (a cut now would lose a question)."""
        return bool(self._slots)

    def tool_calls(self) -> list[ToolCallEvent]:
        calls: list[ToolCallEvent] = []
        for slot in self._slots:
            raw = "".join(slot.arguments)
            args = parse_arguments(raw)
            calls.append(
                ToolCallEvent(
                    id=slot.id or self._new_id(),
                    # A nameless call cannot be dispatched; the loop reports it as an unknown tool.
                    name=slot.name or "unnamed_tool",
                    arguments=args,
                    raw="" if args is not None else raw,
                )
            )
        return calls

    def _add_fragment(self, fragment: Any) -> None:
        index = _get(fragment, "index")
        index = index if isinstance(index, int) else None
        call_id = _get(fragment, "id") or ""
        fn = _get(fragment, "function")
        name = _get(fn, "name") or ""
        args = _get(fn, "arguments")
        slot = self._by_index.get(index) if index is not None else None
        if slot is None and index is None and not call_id and self._slots:
            slot = self._slots[-1]  # an index-less continuation fragment
        if slot is not None and call_id and slot.id and call_id != slot.id:
            slot = None  # a provider that reuses index 0 for every call: a new id is a new call
        if slot is None:
            slot = _Slot(index=index)
            self._slots.append(slot)
            if index is not None:
                self._by_index[index] = slot
        if call_id and not slot.id:
            slot.id = str(call_id)
        if name and not slot.name:
            slot.name = str(name)
        if isinstance(args, dict):
            args = json.dumps(args)
        if isinstance(args, str) and args:
            slot.arguments.append(args)

    def _read_usage(self, usage: Any) -> None:
        if usage is None:
            return
        prompt = _int_or_none(_get(usage, "prompt_tokens"))
        completion = _int_or_none(_get(usage, "completion_tokens"))
        if prompt is not None:
            self.input_tokens = prompt
        if completion is not None:
            self.output_tokens = completion
        cost = _get(usage, "cost")
        if isinstance(cost, (int, float)) and not isinstance(cost, bool) and cost > 0:
            self.reported_cost = float(cost)
