"""Which agent runs a turn: the prober until a probe completes, the teacher ever after."""

from __future__ import annotations

from collections.abc import Sequence

from ..classroom.steers import completed_probe
from ..contracts.chat import Message
from .prober import PROBER
from .spec import AgentSpec
from .teacher import TEACHER


def agent_for(messages: Sequence[Message]) -> AgentSpec:
    return TEACHER if completed_probe(messages) is not None else PROBER
