"""Which agent runs a turn: the prober until a probe completes, the teacher ever after."""

from __future__ import annotations

from collections.abc import Sequence

from studyhall.core.agents.prober import PROBER
from studyhall.core.agents.spec import AgentSpec
from studyhall.core.agents.teacher import TEACHER
from studyhall.core.classroom.steers import completed_probe
from studyhall.core.contracts.chat import Message


def agent_for(messages: Sequence[Message]) -> AgentSpec:
    return TEACHER if completed_probe(messages) is not None else PROBER
