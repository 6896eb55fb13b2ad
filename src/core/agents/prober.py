"""The prober: finds the learner's floor and ceiling by quiz, asks their goal, files the result."""

from __future__ import annotations

from collections.abc import Sequence

from studyhall.core.agents.spec import AgentSpec
from studyhall.core.agents.tools import ASK_TOOL, PROBE_DONE_TOOL, quiz_tool
from studyhall.core.contracts.chat import Message


def _notes(topic: str | None, messages: Sequence[Message]) -> str:
    if topic:
        return f"The learner opened this session about: {topic}"
    return "The learner has not named a topic yet; find out what they want to learn first."


PROBER = AgentSpec(
    role="prober",
    prompt_name="prober.md",
    tools=(quiz_tool(tagged=False), ASK_TOOL, PROBE_DONE_TOOL),
    notes=_notes,
)
