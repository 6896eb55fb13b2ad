""""Quiz me": when the learner's newest message asks to be quizzed (the intent router says
so), the agent answering it is told to quiz now. Derived from the record each turn, so it
holds after a restart and ends once anything answers that message."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from studyhall.core.agents.spec import AgentSpec
from studyhall.core.contracts.chat import Message, SteerPart, TextPart
from studyhall.core.guardrails.intent import route

QUIZ_NOTE = (
    "The learner just asked to be quizzed. Answer with the quiz tool now: a few questions on "
    "what they asked about, or on what this session covered last if they named nothing "
    "(tag them with the plan node when a plan is approved). Do not explain first."
)


def awaiting_quiz_request(messages: Sequence[Message]) -> bool:
    """True when the newest learner message (steers aside) asks for a quiz and nothing has
    answered it yet."""
    for message in reversed(messages):
        if any(isinstance(p, SteerPart) for p in message.parts):
            continue
        if message.role != "user":
            return False
        text = "\n".join(p.text for p in message.parts if isinstance(p, TextPart))
        return route(text).intent == "quiz"
    return False


def quiz_aware(spec: AgentSpec) -> AgentSpec:
    """``spec`` whose session notes carry ``QUIZ_NOTE`` while a quiz request waits."""
    if spec.tool("quiz") is None:
        return spec
    notes = spec.notes

    def with_quiz(topic: str | None, messages: Sequence[Message]) -> str:
        base = notes(topic, messages)
        return f"{base}\n{QUIZ_NOTE}".strip() if awaiting_quiz_request(messages) else base

    return replace(spec, notes=with_quiz)
