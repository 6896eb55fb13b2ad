"""What goes to a chat model and what streams back: requests, tools, events."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Union

from studyhall.core.contracts.chat import Usage
from studyhall.core.contracts.settings import ModelRole

ProviderMessage = dict[str, Any]  # OpenAI-style chat message (role, content, tool_calls, ...)


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    parameters: dict[str, Any]  # JSON schema of the arguments


@dataclass(frozen=True)
class ModelRequest:
    role: ModelRole
    messages: tuple[ProviderMessage, ...]
    tools: tuple[ToolSpec, ...] = ()
    # A JSON schema the answer must follow (structured output for extractor/auditor).
    response_schema: dict[str, Any] | None = None


@dataclass(frozen=True)
class TextDelta:
    text: str
    type: Literal["text-delta"] = "text-delta"


@dataclass(frozen=True)
class ToolCallEvent:
    """A complete tool call; ``arguments`` is parsed JSON, or ``raw`` holds what failed to parse."""

    id: str
    name: str
    arguments: dict[str, Any] | None
    raw: str = ""
    type: Literal["tool-call"] = "tool-call"


@dataclass(frozen=True)
class UsageEvent:
    usage: Usage
    model: str | None = None
    type: Literal["usage"] = "usage"


@dataclass(frozen=True)
class FinishEvent:
    reason: str  # "stop", "tool_calls", "length", ...
    type: Literal["finish"] = "finish"


ModelEvent = Union[TextDelta, ToolCallEvent, UsageEvent, FinishEvent]
