"""A stream's events as typed values: ``WireEvent`` (one class per SSE event name, its fields the
event's ``data``) and ``StreamError``, the one ``error`` event every stream may end with.

The same class is what the runtime yields, what a reader (the CLI, the Ask history) reads
field by field, what the OpenAPI document describes and what the SSE encoder writes: a wire
shape is declared once. An optional field goes out only when it was given, so a field added
later costs an old reader nothing.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict


class WireEvent(BaseModel):
    """One event of a stream: ``name`` is its SSE event name, the fields are its JSON data."""

    # defer_build: built on first use, not at start-up (as every contract).
    model_config = ConfigDict(frozen=True, defer_build=True)

    name: ClassVar[str]

    def wire(self) -> bytes:
        """The event's ``data`` as compact JSON: the fields given (an optional one left out
        is not sent)."""
        return self.__pydantic_serializer__.to_json(self, exclude_unset=True, by_alias=True)


class StreamError(WireEvent):
    """A stream that failed after its status line went out: what kind of failure (``error``)
    and what happened and what to do (``message``). A model's failure says also its ``kind``
    ("auth", "rate_limit", "not_configured", …) and the ``role`` that called it, which the
    window reads to offer Settings."""

    name: ClassVar[str] = "error"

    error: str
    message: str
    kind: str | None = None
    role: str | None = None
    action: str | None = None  # a turn's: "open-settings", "retry" or "new-session"
