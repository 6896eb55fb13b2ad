"""What goes to a chat model and what streams back: requests, tools, events."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from studyhall.core.contracts.chat import Usage
from studyhall.core.contracts.settings import ModelRole

ProviderMessage = dict[str, Any]  # OpenAI-style chat message (role, content, tool_calls, ...)
# A provider-message key marking text the learner asked to send as written: the guardrails do
# not scrub it, and strip the key before the message leaves the process.
AS_WRITTEN_KEY = "studyhall_as_written"
AS_WRITTEN_PART = "as_written"  # the DataPart on a learner message that marks it so


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
    # The cap on the answer's tokens; None: the role's cap in Settings (the adapter sends it).
    max_tokens: int | None = None
    # Set by the guardrail decorator (core/guardrails/chat_model.py) for the audit row:
    # "low", or "+"-joined flags "pii-scrubbed" / "pii-sent" / "material-included".
    # None: the call did not pass through the guardrails.
    risk: str | None = None


@dataclass(frozen=True)
class StreamedText:
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
    # "stop", "tool_calls", "length" (cut at max_tokens), "repetition" (a looping answer was
    # ended by the guard, core/guardrails/repetition.py), ...
    reason: str
    type: Literal["finish"] = "finish"


ModelEvent = StreamedText | ToolCallEvent | UsageEvent | FinishEvent
