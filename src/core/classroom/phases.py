"""The session's phase: a strict fold over the transcript's tool calls, probe -> plan -> teach.

``probe`` until the first ``probe_done`` call that has a result (the prober filed its
assessment); then ``plan`` until the first ``plan_init`` the learner approved; then ``teach``
for good. Steps never go back and never skip: an approval seen while still probing does not
count. The reading of tool calls (oldest first) and of an approval is shared with the plan's
statuses (``plan_status``), which fold the same evidence.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Literal

from studyhall.core.contracts.chat import Message, ToolCallPart

Phase = Literal["probe", "plan", "teach"]


def derive_phase(messages: Sequence[Message]) -> Phase:
    phase: Phase = "probe"
    for part in tool_calls(messages):
        if phase == "probe" and part.name == "probe_done" and part.state == "output-available":
            phase = "plan"
        elif phase == "plan" and approves_plan(part):
            return "teach"
    return phase


def tool_calls(messages: Iterable[Message], name: str | None = None) -> Iterator[ToolCallPart]:
    for message in messages:
        for part in message.parts:
            if isinstance(part, ToolCallPart) and (name is None or part.name == name):
                yield part


def approves_plan(part: ToolCallPart) -> bool:
    """A ``plan_init`` call the learner approved: its output is ``{"approve": true, ...}``."""
    output: Any = part.output
    return (
        part.name == "plan_init"
        and part.state == "output-available"
        and isinstance(output, dict)
        and output.get("approve") is True
    )
