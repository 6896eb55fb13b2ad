"""The classroom's agents and which one answers a turn: the prober until a probe completes,
the teacher ever after, each equipped once with the tools the app gives its role.

Other systems' tools join here, fixed at construction: the workbench's job tools and the
learner tools for the teacher, the read-only learner tools for the prober, and wrappers by tool
name for every agent that has the tool (the learner model's prerequisite gate around ``quiz``).
A turn only picks one, derived from the record, so it holds after a restart — including a
waiting "quiz me": while the learner's newest message asks to be quizzed (the intent router
says so), the agent's session notes tell it to quiz now, until anything answers that message.

The prober hands the session to the teacher with a steer carrying its assessment, derived from
the record too (``pending_handoff``), so it is delivered exactly once across restarts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from types import MappingProxyType

from studyhall.core.agents.tools import (
    ASK_TOOL,
    ASSESSMENT_FIELDS,
    PLAN_INIT_TOOL,
    PROBE_DONE_TOOL,
    Tool,
    quiz_tool,
)
from studyhall.core.classroom.plan_status import current_plan, derive_plan_statuses
from studyhall.core.contracts import models as provider
from studyhall.core.contracts.chat import AgentRole, Message, SteerPart, TextPart, ToolCallPart
from studyhall.core.contracts.steers import is_delivered, probe_steer_id, steer_message
from studyhall.core.guardrails.intent import route

ToolWrap = Callable[[Tool], Tool]

# (topic, transcript) -> the session-specific notes appended to the base prompt.
NotesFn = Callable[[str | None, Sequence[Message]], str]


@dataclass(frozen=True)
class AgentSpec:
    """An agent: its model role, its prompt file, its tools, its session notes."""

    role: AgentRole
    prompt_name: str  # a file in core/agents/prompts/, loaded by the runtime (core does no I/O)
    tools: tuple[Tool, ...]
    notes: NotesFn

    def tool(self, name: str) -> Tool | None:
        return next((t for t in self.tools if t.name == name), None)

    def tool_specs(self) -> tuple[provider.ToolSpec, ...]:
        return tuple(t.spec for t in self.tools)

    def system_prompt(self, base: str, topic: str | None, messages: Sequence[Message]) -> str:
        notes = self.notes(topic, messages).strip()
        return f"{base.strip()}\n\n## This session\n{notes}" if notes else base.strip()



# --- the prober: finds the learner's floor and ceiling by quiz, asks their goal, files it ------


def _prober_notes(topic: str | None, messages: Sequence[Message]) -> str:
    if topic:
        return f"The learner opened this session about: {topic}"
    return "The learner has not named a topic yet; find out what they want to learn first."


PROBER = AgentSpec(
    role="prober",
    prompt_name="prober.md",
    tools=(quiz_tool(tagged=False), ASK_TOOL, PROBE_DONE_TOOL),
    notes=_prober_notes,
)

# --- the teacher: authors the plan once, then teaches along it one idea at a time -------------


def _teacher_notes(topic: str | None, messages: Sequence[Message]) -> str:
    lines: list[str] = []
    if topic:
        lines.append(f"Topic the learner opened the session with: {topic}")
    approved = current_plan(messages)
    if approved is None:
        lines.append(
            "No plan is approved yet: author it with plan_init (or revise it if the learner "
            "asked for changes)."
        )
    else:
        statuses = derive_plan_statuses(approved.plan, messages)
        lines.append("The approved plan, with progress derived from tagged quizzes:")
        for node in approved.plan.nodes:
            lines.append(f"- {node.id} ({statuses.get(node.id, 'upcoming')}): {node.label}")
        lines.append("Tag every quiz with the plan_node it checks.")
    return "\n".join(lines)


TEACHER = AgentSpec(
    role="teacher",
    prompt_name="teacher.md",
    tools=(PLAN_INIT_TOOL, quiz_tool(tagged=True), ASK_TOOL),
    notes=_teacher_notes,
)

# --- which one answers, equipped ---------------------------------------------------------------


def agent_for(messages: Sequence[Message]) -> AgentSpec:
    return TEACHER if completed_probe(messages) is not None else PROBER


class AgentRoster:
    def __init__(self, *, tools: Mapping[AgentRole, Sequence[Tool]],
                 wrap: Mapping[str, ToolWrap]) -> None:
        self._agents = MappingProxyType(
            {spec.role: quiz_aware(_equipped(spec, tuple(tools.get(spec.role, ())), wrap))
             for spec in (PROBER, TEACHER)})

    def agent_for(self, messages: Sequence[Message]) -> AgentSpec:
        return self._agents[agent_for(messages).role]


def _equipped(spec: AgentSpec, extra: tuple[Tool, ...], wrap: Mapping[str, ToolWrap]) -> AgentSpec:
    """``spec`` with the tools other systems give its role, each wrapped by its name's wrap."""
    tools = (*spec.tools, *extra)
    return replace(spec, tools=tuple(wrap[t.name](t) if t.name in wrap else t for t in tools))


# --- the prober -> teacher hand-off ------------------------------------------------------------


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


# --- "quiz me" ---------------------------------------------------------------------------------

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
