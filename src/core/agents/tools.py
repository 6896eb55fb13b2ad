"""The tools the prober and teacher call: JSON schemas, argument checks, server execution.

A *client* tool (``quiz``, ``ask_user_question``, a valid ``plan_init``) waits in the record for
the learner's answer and ends the turn. A *server* tool (``probe_done``) runs in-process, for this
chat only. A check or a run may be a coroutine (the runtime's tools read stores off the event
loop); the loop awaits it. Bad arguments never reach the learner: they come back to the model as a tool error
with a precise message (line-numbered for a plan) so it can correct itself.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from studyhall.core.classroom.plan_parser import parse_plan
from studyhall.core.classroom.plan_status import current_plan
from studyhall.core.classroom.questions import validate_ask, validate_quiz
from studyhall.core.classroom.turn_state import NOT_SHOWN
from studyhall.core.contracts.chat import DataPart, Message
from studyhall.core.contracts.models import ToolCallEvent, ToolSpec

ToolKind = Literal["client", "server"]


@dataclass(frozen=True)
class ToolContext:
    """What a tool may see: this chat's transcript, nothing else."""

    chat_id: str
    messages: Sequence[Message]


@dataclass(frozen=True)
class ToolOutcome:
    """The result of a server tool: its output, UI data parts, and whether the agent is done."""

    output: Any
    data: tuple[DataPart, ...] = ()
    ends_agent: bool = False


Check = Callable[[dict[str, Any], ToolContext], list[str] | Awaitable[list[str]]]
Run = Callable[[dict[str, Any], ToolContext], ToolOutcome | Awaitable[ToolOutcome]]


@dataclass(frozen=True)
class Tool:
    spec: ToolSpec
    kind: ToolKind
    check: Check  # every problem with the arguments (empty: run it / show it)
    run: Run | None = None
    fix_hint: str = ""  # the last line of a rejection: what the model should do next

    @property
    def name(self) -> str:
        return self.spec.name


async def call_problem(tools: Sequence[Tool], event: ToolCallEvent,
                       ctx: ToolContext) -> str | None:
    """What is wrong with a call (unknown tool, not JSON, failed checks); None: it may go."""
    name = event.name or "unnamed"
    tool = next((t for t in tools if t.name == name), None)
    args = event.arguments
    if tool is None:
        return unknown_tool_error(name, [t.name for t in tools])
    if args is None:
        return json_error(name, event.raw)
    if not isinstance(args, dict):
        return argument_error(name, ["the arguments must be a JSON object, not a list or value"])
    checked = tool.check(args, ctx)
    problems = await checked if inspect.isawaitable(checked) else checked
    return argument_error(name, problems, tool.fix_hint) if problems else None


def argument_error(tool_name: str, problems: Sequence[str], hint: str = "") -> str:
    """The tool result a model gets for bad arguments: every problem, then what to do."""
    lines = [f"{tool_name} was rejected and {NOT_SHOWN}:"]
    lines += [f"- {p}" for p in problems]
    lines.append(hint or f"Fix every problem and call {tool_name} again.")
    return "\n".join(lines)


def json_error(tool_name: str, raw: str) -> str:
    shown = raw if len(raw) <= 400 else raw[:400] + "…"
    return (
        f"The arguments of {tool_name} were not valid JSON, so the call was not run and "
        f"{NOT_SHOWN}. "
        f"You sent: {shown!r}. Call {tool_name} again with a single JSON object."
    )


def unknown_tool_error(name: str, available: Sequence[str]) -> str:
    return f"There is no tool named {name!r}. The tools you can call are: {', '.join(available)}."


# --- quiz -----------------------------------------------------------------------------------

_QUESTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "prompt": {"type": "string", "description": "The question, in Markdown."},
        "kind": {
            "type": "string",
            "enum": ["single", "multiple", "short", "numeric"],
            "description": "single (default when one index is correct), multiple (select all), "
            "short (free text), numeric.",
        },
        "choices": {"type": "array", "items": {"type": "string"}, "description": "2-6 options."},
        "correct": {
            "type": "array",
            "items": {"type": "integer"},
            "description": "0-based indices into choices of every correct option.",
        },
        "answer": {
            "anyOf": [
                {"type": "string"},
                {"type": "array", "items": {"type": "string"}},
                {"type": "number"},
            ],
            "description": "short: an accepted text or list of texts; numeric: the number.",
        },
        "tolerance": {"type": "number", "description": "numeric: allowed absolute error."},
        "explanation": {"type": "string", "description": "Why the answer is right (shown after)."},
        "difficulty": {
            "type": "string",
            "enum": ["easy", "medium", "hard"],
            "description": "How hard the question is (unmarked counts as medium). A hard "
            "question is refused while the concept's prerequisites are not yet learnt.",
        },
    },
    "required": ["prompt"],
}


def _quiz_spec(tagged: bool) -> ToolSpec:
    properties: dict[str, Any] = {
        "questions": {"type": "array", "minItems": 1, "maxItems": 10, "items": _QUESTION_SCHEMA},
        "node_id": {
            "type": "string",
            "description": "Id of the knowledge-graph node this quiz checks, when you know it "
            "(from the session context or concept_confidence).",
        },
    }
    description = (
        "Show the learner a short quiz (1-5 questions) and wait for their answers. Choices are "
        "shuffled for display; give 'correct' as indices into YOUR order. Every question also "
        "offers \"I don't know\". The turn ends until the learner answers."
    )
    if tagged:
        properties["plan_node"] = {
            "type": "string",
            "description": "Id of the approved plan's node this quiz checks.",
        }
        description += " Tag every quiz with the plan node it checks (plan_node)."
    return ToolSpec(
        name="quiz",
        description=description,
        parameters={"type": "object", "properties": properties, "required": ["questions"]},
    )


def _check_quiz(tagged: bool) -> Callable[[dict[str, Any], ToolContext], list[str]]:
    def check(args: dict[str, Any], ctx: ToolContext) -> list[str]:
        problems = list(validate_quiz(args))
        if not tagged:
            return problems
        node = args.get("plan_node")
        approved = current_plan(ctx.messages)
        if approved is None:
            if node is not None:
                problems.append(
                    "plan_node: there is no approved plan yet; leave plan_node out, or author "
                    "the plan with plan_init first."
                )
            return problems
        ids = [n.id for n in approved.plan.nodes]
        if node is None:
            problems.append(f"plan_node is missing: tag the quiz with one of {', '.join(ids)}.")
        elif not isinstance(node, str) or node not in ids:
            problems.append(f"plan_node {node!r} is not in the approved plan ({', '.join(ids)}).")
        return problems

    return check


def quiz_tool(*, tagged: bool) -> Tool:
    return Tool(spec=_quiz_spec(tagged), kind="client", check=_check_quiz(tagged))


# --- ask_user_question ----------------------------------------------------------------------

ASK_SPEC = ToolSpec(
    name="ask_user_question",
    description=(
        "Ask the learner one open question (their goal, what they already tried, a preference) "
        "and wait for the answer. Give 'options' for a pick-one answer; allow_free_text lets them "
        "type instead. The turn ends until the learner answers."
    ),
    parameters={
        "type": "object",
        "properties": {
            "question": {"type": "string"},
            "options": {"type": "array", "items": {"type": "string"}, "maxItems": 8},
            "allow_free_text": {"type": "boolean"},
        },
        "required": ["question"],
    },
)


def _check_ask(args: dict[str, Any], ctx: ToolContext) -> list[str]:
    return list(validate_ask(args))


ASK_TOOL = Tool(spec=ASK_SPEC, kind="client", check=_check_ask)


# --- probe_done -----------------------------------------------------------------------------

ASSESSMENT_FIELDS = ("floor", "ceiling", "goal", "summary")  # what probe_done files

PROBE_DONE_SPEC = ToolSpec(
    name="probe_done",
    description=(
        "File your assessment when you know the learner's floor, ceiling and goal. This ends "
        "the probe: the teacher takes over the session."
    ),
    parameters={
        "type": "object",
        "properties": {
            "floor": {"type": "string", "description": "What they reliably know."},
            "ceiling": {"type": "string", "description": "Where they start to struggle."},
            "goal": {"type": "string", "description": "What they want, in their words."},
            "summary": {"type": "string", "description": "Two or three sentences for the teacher."},
        },
        "required": list(ASSESSMENT_FIELDS),
    },
)


def _check_probe(args: dict[str, Any], ctx: ToolContext) -> list[str]:
    problems = [
        f"{key} must be a non-empty string."
        for key in ASSESSMENT_FIELDS
        if not isinstance(args.get(key), str) or not str(args.get(key)).strip()
    ]
    unknown = sorted(set(args) - set(ASSESSMENT_FIELDS))
    if unknown:
        problems.append(f"unknown argument(s): {', '.join(unknown)}.")
    return problems


def _run_probe(args: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
    assessment = {k: str(args[k]).strip() for k in ASSESSMENT_FIELDS}
    return ToolOutcome(
        output={"status": "filed", "next": "The teacher takes over from here."},
        data=(DataPart(name="assessment", data=assessment),),
        ends_agent=True,
    )


PROBE_DONE_TOOL = Tool(spec=PROBE_DONE_SPEC, kind="server", check=_check_probe, run=_run_probe)


# --- plan_init ------------------------------------------------------------------------------

PLAN_INIT_SPEC = ToolSpec(
    name="plan_init",
    description=(
        "Author the session's plan once: a dependency map of the ideas to learn, as a mermaid "
        "flowchart (e.g. 'graph TD\\n  A[Vertices and edges] --> B[Paths]'). An edge A --> B "
        "means A comes before B. Node ids are what you tag quizzes with. The server checks the "
        "plan; errors come back with line numbers. A valid plan is shown to the learner, who "
        "approves it or asks for changes; the turn ends until they do."
    ),
    parameters={
        "type": "object",
        "properties": {
            "title": {"type": "string"},
            "mermaid": {"type": "string", "description": "The flowchart source."},
        },
        "required": ["title", "mermaid"],
    },
)


def _check_plan(args: dict[str, Any], ctx: ToolContext) -> list[str]:
    problems: list[str] = []
    title = args.get("title")
    if not isinstance(title, str) or not title.strip():
        problems.append("title must be a non-empty string.")
    mermaid = args.get("mermaid")
    if not isinstance(mermaid, str) or not mermaid.strip():
        problems.append("mermaid must be the plan's flowchart source (a non-empty string).")
    else:
        parsed = parse_plan(mermaid)
        problems.extend(str(e) for e in parsed.errors)
        if parsed.plan is not None and not parsed.plan.nodes:
            problems.append("the plan has no nodes: give it at least one step to teach.")
    if current_plan(ctx.messages) is not None:
        problems.append(
            "this session already has an approved plan; it is authored once. Keep teaching "
            "along it."
        )
    return problems


PLAN_INIT_TOOL = Tool(
    spec=PLAN_INIT_SPEC,
    kind="client",
    check=_check_plan,
    fix_hint="Fix every error and call plan_init again with the whole corrected plan.",
)
