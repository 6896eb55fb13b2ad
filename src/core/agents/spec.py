"""An agent's shape: its model role, its prompt file, its tools, and its session notes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from studyhall.core.agents.tools import Tool
from studyhall.core.contracts.chat import AgentRole, Message
from studyhall.core.contracts.models import ToolSpec

# (topic, transcript) -> the session-specific notes appended to the base prompt.
NotesFn = Callable[[str | None, Sequence[Message]], str]


@dataclass(frozen=True)
class AgentSpec:
    role: AgentRole
    prompt_name: str  # a file in core/agents/prompts/, loaded by the runtime (core does no I/O)
    tools: tuple[Tool, ...]
    notes: NotesFn

    def tool(self, name: str) -> Tool | None:
        return next((t for t in self.tools if t.name == name), None)

    def tool_specs(self) -> tuple[ToolSpec, ...]:
        return tuple(t.spec for t in self.tools)

    def system_prompt(self, base: str, topic: str | None, messages: Sequence[Message]) -> str:
        notes = self.notes(topic, messages).strip()
        return f"{base.strip()}\n\n## This session\n{notes}" if notes else base.strip()
