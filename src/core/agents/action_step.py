"""The JSON-mode step: how an agent whose model cannot call tools still quizzes, asks, plans and
files its probe. The model answers one JSON object ``{"say", "action"}`` — under the server's
schema-constrained output when it has one, else printed (``core.agents.printed_calls`` reads
tags, fences and bare calls too) — and the action is checked by the same checkers a tool call
meets. A wrong or cut answer is shown back with what was wrong, a bounded number of times;
after that the step gives up and the turn goes on as plain text (``CALM_LINE``).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from studyhall.core.agents.printed_calls import PrintedCall, as_call, find_printed_calls
from studyhall.core.agents.schema_bounds import bounded
from studyhall.core.agents.structured import CUT_PROBLEM, CUT_REASONS, parse_json_text
from studyhall.core.contracts import models as provider
from studyhall.core.contracts.chat import Usage, add_usage
from studyhall.core.ports.models import ChatModel

REPAIRS = 2  # corrective retries after the first answer
SAY_CHARS = 2_000
CALM_LINE = ("(I couldn't set that up on screen this time, so let's carry on here in the "
             "conversation.)")
_WHAT = {"quiz": "a quiz", "ask_user_question": "that question", "plan_init": "the plan"}


def calm_line(tool: str | None = None) -> str:
    """The one line the learner reads when a structured step gave up, naming what it was."""
    what = _WHAT.get(tool or "")
    return CALM_LINE if what is None else CALM_LINE.replace("set that up", f"set {what} up")

# The check the tool path runs: the problem with a call, None when it may be shown / run.
CheckCall = Callable[[provider.ToolCallEvent], Awaitable[str | None]]


def action_schema(tools: Sequence[provider.ToolSpec]) -> dict[str, Any]:
    """One answer: what to say, and at most one action with its arguments' own schema."""
    actions: list[dict[str, Any]] = [{"type": "null"}]
    actions += [{"type": "object",
                 "properties": {"name": {"type": "string", "enum": [t.name]},
                                "arguments": t.parameters},
                 "required": ["name", "arguments"]} for t in tools]
    return bounded({
        "title": "agent_step",
        "type": "object",
        "properties": {"say": {"type": "string", "maxLength": SAY_CHARS},
                       "action": {"anyOf": actions}},
        "required": ["say", "action"],
    })


def action_note(tools: Sequence[provider.ToolSpec], *, terse: bool = False) -> str:
    """What the system prompt says instead of sending tools; ``terse`` (a small context):
    the argument schemas without their descriptions."""
    how = ("You cannot call tools in this conversation. Answer with ONE JSON object and "
           'nothing else: {"say": "<what you tell the learner>", "action": null} — or, to '
           'use a tool, "action": {"name": "<tool>", "arguments": {...}}. At most one action. '
           "The tools:")
    lines = ["## How to answer here", how]
    for t in tools:
        params = _undescribed(t.parameters) if terse else t.parameters
        about = t.description.split(". ")[0].rstrip(".") + "." if terse else t.description
        lines.append(f"- {t.name}: {about} Arguments (JSON Schema): "
                     f"{json.dumps(params, separators=(',', ':'))}")
    return "\n".join(lines)


def _undescribed(node: Any) -> Any:
    if isinstance(node, list):
        return [_undescribed(n) for n in node]
    if isinstance(node, dict):
        return {k: _undescribed(v) for k, v in node.items() if k != "description"}
    return node


def text_history(messages: Sequence[provider.ProviderMessage]) -> list[provider.ProviderMessage]:
    """Provider messages with tool calls and results as plain text, for a server that takes
    no tools (many chat templates fail on a ``tool`` message)."""
    out: list[provider.ProviderMessage] = []
    names: dict[str, str] = {}  # tool call id -> tool name, for its result
    for message in messages:
        role = message.get("role")
        if role == "tool":
            name = names.get(str(message.get("tool_call_id")), "the action")
            out.append({"role": "user",
                        "content": f"[result of {name}] {message.get('content', '')}"})
        elif role == "assistant" and message.get("tool_calls"):
            said = message.get("content") or ""
            for call in message["tool_calls"]:
                fn = call.get("function", {})
                names[str(call.get("id"))] = str(fn.get("name"))
                said += ("\n" if said else "") + json.dumps(
                    {"name": fn.get("name"), "arguments": _loads(fn.get("arguments"))},
                    ensure_ascii=False)
            out.append({"role": "assistant", "content": said})
        else:
            out.append(dict(message))
    merged: list[provider.ProviderMessage] = []
    for message in out:  # strict templates want user/assistant to alternate
        if merged and merged[-1]["role"] == message["role"] == "user" and not any(
                k not in ("role", "content") for k in (*merged[-1], *message)):
            merged[-1] = {"role": "user", "content": f"{merged[-1]['content']}\n\n{message['content']}"}
        else:
            merged.append(message)
    return merged


def _loads(raw: Any) -> Any:
    if not isinstance(raw, str):
        return raw
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


@dataclass
class StepAnswer:
    say: str = ""
    call: provider.ToolCallEvent | None = None
    gave_up: bool = False
    wanted: str | None = None  # the tool the last wrong answer tried to call
    problems: list[str] = field(default_factory=list)  # what was wrong, per failed attempt
    usages: list[tuple[str | None, Usage]] = field(default_factory=list)


def read_answer(text: str, reason: str) -> tuple[str, PrintedCall | None]:
    """What one reply says and the action it takes; ``ValueError`` with what to fix."""
    if reason in CUT_REASONS:
        raise ValueError(CUT_PROBLEM)
    try:
        value = parse_json_text(text)
    except ValueError:
        printed = find_printed_calls(text)  # a model that prints a call instead of the JSON
        if printed.calls:
            return printed.text, printed.calls[0]
        raise
    if not isinstance(value, dict):
        # ValueError: a wrong shape is a bad answer, shown back to the model to fix
        raise ValueError('the answer must be one JSON object {"say": ..., "action": ...}')  # noqa: TRY004
    if "say" not in value and "action" not in value:
        call = as_call(value, text)  # the call alone: {"name", "arguments"}
        if call is not None:
            return "", call
    say = value.get("say")
    if say is not None and not isinstance(say, str):
        raise ValueError('"say" must be a string')
    action = value.get("action")
    if action is None:
        return (say or "").strip(), None
    call = as_call(action, json.dumps(action, ensure_ascii=False))
    if call is None:
        raise ValueError('"action" must be null or {"name": "<tool>", "arguments": {...}}')
    return (say or "").strip(), call


async def json_step(model: ChatModel, request: provider.ModelRequest, check: CheckCall,
                    new_id: Callable[[str], str], *, tools: Sequence[provider.ToolSpec],
                    schema: bool, repairs: int = REPAIRS) -> StepAnswer:
    """Ask for one ``{"say", "action"}`` answer, an action among ``tools`` (under their
    schema when ``schema``); show a bad one back up to ``repairs`` times."""
    answer = StepAnswer()
    conversation = list(request.messages)
    for _ in range(repairs + 1):
        asked = provider.ModelRequest(
            role=request.role, messages=tuple(conversation), risk=request.risk,
            response_schema=action_schema(tools) if schema else None,
            max_tokens=request.max_tokens)
        text, reason = await _collect(model, asked, answer)
        try:
            say, printed = read_answer(text, reason)
            problem = None
            if printed is not None:
                answer.wanted = printed.name or answer.wanted
                answer.call = provider.ToolCallEvent(
                    id=new_id("call"), name=printed.name or "unnamed", arguments=printed.arguments,
                    raw=printed.raw if printed.arguments is None else "")
                problem = await check(answer.call)
        except ValueError as e:
            say, problem = "", str(e)
        if problem is None:
            answer.say = say
            return answer
        answer.problems.append(problem)
        answer.call = None
        shown = text if len(text) <= 4_000 else text[:4_000] + "…"
        conversation += [
            {"role": "assistant", "content": shown or "(empty answer)"},
            {"role": "user", "content": f"[Studyhall note] That answer could not be used: "
                                        f"{problem}\nReply again with only the JSON object."},
        ]
    answer.gave_up = True
    return answer


async def _collect(model: ChatModel, request: provider.ModelRequest,
                   answer: StepAnswer) -> tuple[str, str]:
    parts: list[str] = []
    reason = "stop"
    fallback = ""
    async for event in model.stream(request):
        if isinstance(event, provider.StreamedText):
            parts.append(event.text)
        elif isinstance(event, provider.ToolCallEvent) and not fallback:
            fallback = json.dumps({"say": "", "action": {"name": event.name,
                                                         "arguments": event.arguments}})
        elif isinstance(event, provider.UsageEvent):
            answer.usages.append((event.model, event.usage))
        elif isinstance(event, provider.FinishEvent):
            reason = event.reason
    return ("".join(parts) or fallback), reason


def total_usage(answer: StepAnswer) -> Usage | None:
    usage: Usage | None = None
    for _, u in answer.usages:
        usage = add_usage(usage, u)
    return usage
