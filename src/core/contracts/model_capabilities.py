"""What one model on one server can do, as probed once (issue 31): the agents pick their
structured path from it, Settings shows it. ``None`` means "not known yet" — callers then
try the richer path first and fall back on the answer they get."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ModelCapabilities:
    tools: bool | None = None  # the model calls tools (not only prints them as text)
    json_schema: bool | None = None  # the server constrains output to a JSON schema
    context_tokens: int | None = None  # the server's context window for this model
    note: str = ""  # one plain line for Settings, e.g. why tools are off

    @property
    def small_context(self) -> bool:
        return self.context_tokens is not None and self.context_tokens <= 16_384


UNKNOWN = ModelCapabilities()
