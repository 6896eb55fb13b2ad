"""The documented shape of every Server-Sent Event the API streams: per stream, each event name
and the JSON Schema of its ``data``. The OpenAPI document describes each stream's events with
them (``openapi.py``), and the tests hold real streams to them.

Every stream's events are typed models (a turn's and the activity feed's:
``core/contracts/turn_stream.py``; Ask's: ``core/contracts/ask_stream.py``), described here from
the models (``model_events``) — the same classes the encoder writes, so no shape is written
twice. Every stream may end with the one ``error`` event, ``StreamError``
(``{"error", "message"}``, plus ``kind``/``role``/``action`` when a turn's model call failed).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from studyhall.core.contracts.stream import WireEvent

JsonSchema = dict[str, Any]
Events = dict[str, JsonSchema]

_STR: JsonSchema = {"type": "string"}

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
        return {"type": "object", "required": ["event", "data"],
                "properties": {"event": _STR, "data": {"type": "string",
                                                       "contentMediaType": "application/json"}}}
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
