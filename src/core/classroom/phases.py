"""The session's phase: a strict fold over the transcript, probe -> plan -> teach.

``probe`` until the first ``probe_done`` call that has a result (the prober filed its
assessment); then ``plan`` until the first ``plan_init`` the learner approved; then ``teach``
for good. Steps never go back and never skip: an approval seen while still probing does not
count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from studyhall.core.classroom.tool_calls import approves_plan, tool_calls
from studyhall.core.contracts.chat import Message

Phase = Literal["probe", "plan", "teach"]


def derive_phase(messages: Sequence[Message]) -> Phase:
    phase: Phase = "probe"
    for part in tool_calls(messages):
        if phase == "probe" and part.name == "probe_done" and part.state == "output-available":
            phase = "plan"
        elif phase == "plan" and approves_plan(part):
            return "teach"
    return phase
