"""Which agent answers a session now, with the tools the app gives each role.

The roster (``core.agents.roster``) picks the agent from the transcript; other systems' tools
join it here, fixed at construction: the workbench's job tools and the learner tools for the
teacher, the read-only learner tools for the prober, and wrappers by tool name for every agent
that has the tool (the learner model's prerequisite gate around ``quiz``). Each role's agent is
equipped once, here, so a turn only picks one (and marks a waiting "quiz me").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

from studyhall.core.agents.prober import PROBER
from studyhall.core.agents.quiz_request import quiz_aware
from studyhall.core.agents.roster import agent_for
from studyhall.core.agents.spec import AgentSpec
from studyhall.core.agents.teacher import TEACHER
from studyhall.core.agents.tools import Tool
from studyhall.core.contracts.chat import AgentRole, Message

ToolWrap = Callable[[Tool], Tool]


class AgentRoster:
    def __init__(self, *, tools: Mapping[AgentRole, Sequence[Tool]],
                 wrap: Mapping[str, ToolWrap]) -> None:
        # quiz_aware: while a "quiz me" waits, the agent's session notes say to quiz now.
        self._agents = MappingProxyType(
            {spec.role: quiz_aware(_equipped(spec, tuple(tools.get(spec.role, ())), wrap))
             for spec in (PROBER, TEACHER)})

    def agent_for(self, messages: Sequence[Message]) -> AgentSpec:
        return self._agents[agent_for(messages).role]


def _equipped(spec: AgentSpec, extra: tuple[Tool, ...], wrap: Mapping[str, ToolWrap]) -> AgentSpec:
    """``spec`` with the tools other systems give its role, each wrapped by its name's wrap."""
    tools = (*spec.tools, *extra)
    return replace(spec, tools=tuple(wrap[t.name](t) if t.name in wrap else t for t in tools))
