"""One agent step's request: the system prompt and the history fitted to the model's context,
with the tools — or, for a model that cannot call them, the JSON action note instead and the
history as plain text (``action_step``)."""

from __future__ import annotations

from collections.abc import Sequence

from studyhall.core.agents.action_step import action_note, text_history
from studyhall.core.agents.context_budget import (
    NOTE_TOKENS,
    estimate_tokens,
    fit_history,
    reply_reserve,
)
from studyhall.core.agents.tools import Tool
from studyhall.core.classroom.record_messages import to_provider_messages
from studyhall.core.contracts import models as provider
from studyhall.core.contracts.chat import AgentRole, Message
from studyhall.core.contracts.model_capabilities import ModelCapabilities


def _history_budget(system: str, tools: Sequence[Tool], capabilities: ModelCapabilities,
                    json_mode: bool) -> int | None:
    context = capabilities.context_tokens
    if context is None:
        return None
    spent = estimate_tokens(system) + (
        0 if json_mode else sum(estimate_tokens(str(t.spec.parameters)) + 40 for t in tools))
    return context - spent - reply_reserve(context) - NOTE_TOKENS


def step_request(*, role: AgentRole, system: str, tools: Sequence[Tool],
                 history: Sequence[Message], capabilities: ModelCapabilities,
                 json_mode: bool, with_tools: bool = True) -> provider.ModelRequest:
    specs = tuple(t.spec for t in tools)
    if json_mode:
        system = f"{system}\n\n{action_note(specs, terse=capabilities.small_context)}"
    fitted = fit_history(history, budget=_history_budget(system, tools, capabilities, json_mode))
    if fitted.dropped:
        system = f"{system}\n\n{fitted.note}"
    messages = to_provider_messages(fitted.messages)
    if json_mode or not with_tools:
        messages = text_history(messages)
    return provider.ModelRequest(
        role=role,
        messages=({"role": "system", "content": system}, *messages),
        tools=specs if with_tools and not json_mode else (),
    )
