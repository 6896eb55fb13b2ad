"""The documented shape of every Server-Sent Event the API streams: per stream, each event name
and the JSON Schema of its ``data``. The OpenAPI document describes each stream's events with
them (``openapi.py``), and the tests hold real streams to them.

A stream of typed events (Ask's: ``core/contracts/ask_stream.py``) is described from its models
(``model_events``), the same classes the encoder writes; the others are written out here.
A stream may always end with the generic ``error`` event of ``sse.py`` (``StreamError``:
``{"error", "message"}``) when something fails after the status line went out; a turn's own
``error`` has ``kind``/``message``/``action`` instead, so ``error`` accepts both.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from studyhall.core.contracts.stream import WireEvent

JsonSchema = dict[str, Any]
Events = dict[str, JsonSchema]

_STR: JsonSchema = {"type": "string"}
_OPT_STR: JsonSchema = {"type": ["string", "null"]}
_INT_OR_NULL: JsonSchema = {"type": ["integer", "null"]}
_NUM_OR_NULL: JsonSchema = {"type": ["number", "null"]}


def _obj(required: dict[str, JsonSchema], optional: dict[str, JsonSchema] | None = None) -> JsonSchema:
    """An object with these keys (more may come: new fields are added freely)."""
    return {"type": "object", "required": sorted(required),
            "properties": {**required, **(optional or {})}}


ERROR: JsonSchema = {
    "anyOf": [
        _obj({"error": _STR, "message": _STR}),  # a stream that failed (sse.py)
        _obj({"kind": _STR, "message": _STR}, {"role": _OPT_STR, "action": _STR}),  # a turn
    ],
}

_TOOL_PART = {"message_id": _STR, "tool_call_id": _STR, "name": _STR, "state": _STR}

TURN_EVENTS: Events = {
    "message-start": _obj({"message_id": _STR, "role": _STR, "agent": _OPT_STR}),
    "text-delta": _obj({"message_id": _STR, "text": _STR}),
    "tool-call": _obj(_TOOL_PART, {"input": {"type": "object"}, "presented": {},
                                   "plan": {}, "error": {}}),
    "tool-result": _obj(_TOOL_PART, {"input": {"type": "object"}, "output": {}, "error": {}}),
    "steer": _obj({"message_id": _STR, "steer_id": _STR, "kind": _OPT_STR, "text": _STR,
                   "data": {"type": "object"}}),
    "usage": _obj({"message_id": _STR, "role": _STR, "model": _OPT_STR,
                   "input_tokens": _INT_OR_NULL, "output_tokens": _INT_OR_NULL,
                   "cost_usd": _NUM_OR_NULL}),
    "finish": _obj({"reason": _STR, "phase": _STR, "pending": {"type": "array", "items": _STR}}),
    "error": ERROR,
}

ACTIVITY_EVENTS: Events = {
    "activity": _obj({"running": {"type": "array", "items": {"type": "object"}},
                      "recent": {"type": "array", "items": {"type": "object"}},
                      "summary": {"type": "object"}}),
    "error": ERROR,
}

ANY_EVENTS: Events = {}  # a stream that documents no event names: any name, JSON data


def model_events(stream: Iterable[type[WireEvent]]) -> Events:
    """Each typed event's name and the JSON Schema of its data, from its model: self-contained
    (the models nested in it written in place), so a reader resolves nothing. Built when the
    document is, not at import."""
    out: Events = {}
    for event in stream:
        schema = event.model_json_schema()
        defs = schema.pop("$defs", {})
        out[event.name] = _inlined(schema, defs)
    return out


def _inlined(value: Any, defs: dict[str, JsonSchema]) -> Any:
    if isinstance(value, dict):
        ref = value.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return _inlined(defs[ref.removeprefix("#/$defs/")], defs)  # no model nests itself
        return {k: _inlined(v, defs) for k, v in value.items()}
    if isinstance(value, list):
        return [_inlined(v, defs) for v in value]
    return value


def event_schema(events: Events) -> JsonSchema:
    """One event as schemathesis and OpenAPI 3.1 read ``text/event-stream``: ``{"event",
    "data"}`` where ``data`` is a JSON text whose parsed value has the event's schema."""
    if not events:
        return _obj({"event": _STR, "data": {"type": "string",
                                             "contentMediaType": "application/json"}})
    return {
        "type": "object",
        "required": ["event", "data"],
        "oneOf": [
            {"properties": {"event": {"const": name},
                            "data": {"type": "string", "contentMediaType": "application/json",
                                     "contentSchema": schema}}}
            for name, schema in events.items()
        ],
    }
