"""The classroom's steers: claiming queued steers at a claim point, and the prober's hand-off.

Steer ids and the steer message itself are ``core.contracts.steers`` (shared with the
workbench): a steer already in the transcript is never appended again, and re-saving it
replaces itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from studyhall.core.contracts.chat import Message, ToolCallPart
from studyhall.core.contracts.steers import (
    delivered_steer_ids,
    is_delivered,
    probe_steer_id,
    steer_message,
    steer_part,
)

ASSESSMENT_FIELDS = ("floor", "ceiling", "goal", "summary")


def claim_steers(messages: Sequence[Message], queued: Iterable[Message]) -> list[Message]:
    """The queued steers still to deliver: not in the transcript, each id once, queue order."""
    seen = delivered_steer_ids(messages)
    claimed: list[Message] = []
    for message in queued:
        steer = steer_part(message)
        if steer is None or steer.steer_id in seen:
            continue
        seen.add(steer.steer_id)
        claimed.append(message)
    return claimed


# --- the prober -> teacher hand-off -------------------------------------------------------


def completed_probe(messages: Iterable[Message]) -> ToolCallPart | None:
    """The first ``probe_done`` that succeeded: from it on, the teacher runs every turn."""
    for message in messages:
        for part in message.parts:
            if (
                isinstance(part, ToolCallPart)
                and part.name == "probe_done"
                and part.state == "output-available"
            ):
                return part
    return None


def assessment_of(part: ToolCallPart) -> dict[str, str]:
    return {k: str(part.input.get(k, "")).strip() for k in ASSESSMENT_FIELDS}


def handoff_text(assessment: Mapping[str, str]) -> str:
    return (
        "The prober has finished assessing the learner and hands the session to you, the "
        "teacher.\n"
        f"- Floor (what they reliably know): {assessment.get('floor', '')}\n"
        f"- Ceiling (where they start to struggle): {assessment.get('ceiling', '')}\n"
        f"- Goal (in their words): {assessment.get('goal', '')}\n"
        f"- Summary: {assessment.get('summary', '')}\n"
        "Start from the floor, aim at the goal. Author the session's plan now with plan_init."
    )


def pending_handoff(chat_id: str, messages: Sequence[Message], at: datetime) -> Message | None:
    """The hand-off steer, if a probe has completed and the steer was not delivered yet.

    Derived from the record rather than held in memory, so a crash between ``probe_done``
    and the teacher's first step still hands off exactly once after a restart.
    """
    probe = completed_probe(messages)
    steer_id = probe_steer_id(chat_id)
    if probe is None or is_delivered(messages, steer_id):
        return None
    assessment = assessment_of(probe)
    return steer_message(
        steer_id, "handoff", handoff_text(assessment), at, data_name="assessment", data=assessment
    )
