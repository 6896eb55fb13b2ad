"""Which agent answers a session now, with the tools the app gives each role.

The roster (``core.agents.roster``) picks the agent from the transcript; other systems' tools
join it here, fixed at construction: the workbench's job tools and the learner tools for the
teacher, the read-only learner tools for the prober, and wrappers by tool name for every agent
that has the tool (the learner model's prerequisite gate around ``quiz``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

from studyhall.core.agents.quiz_request import quiz_aware
from studyhall.core.agents.roster import agent_for
from studyhall.core.agents.spec import AgentSpec
from studyhall.core.agents.tools import Tool
from studyhall.core.contracts.chat import AgentRole, Message

ToolWrap = Callable[[Tool], Tool]


class AgentRoster:
    def __init__(self, *, tools: Mapping[AgentRole, Sequence[Tool]],
                 wrap: Mapping[str, ToolWrap]) -> None:
        self._tools = MappingProxyType({role: tuple(t) for role, t in tools.items()})
        self._wrap = MappingProxyType(dict(wrap))

    def agent_for(self, messages: Sequence[Message]) -> AgentSpec:
        spec = quiz_aware(agent_for(messages))  # "quiz me" -> this agent quizzes now
        extra = self._tools.get(spec.role)
        if extra:
            spec = replace(spec, tools=(*spec.tools, *extra))
        if self._wrap:
            spec = replace(spec, tools=tuple(
                self._wrap[t.name](t) if t.name in self._wrap else t for t in spec.tools))
        return spec
