"""The agent loop: stream the model, run server tools, stop at client tools, cap the steps.

One ``AgentRun`` builds one assistant message. It yields a ``Saved`` snapshot every time a part
completes (the runtime persists it before passing on the matching stream event), so a crash
loses at most the part in flight. Written only against the ``ChatModel`` port.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from studyhall.core.agents.spec import AgentSpec
from studyhall.core.agents.tools import ToolContext, argument_error, json_error, unknown_tool_error
from studyhall.core.classroom.record_messages import to_provider_messages
from studyhall.core.contracts.chat import DataPart, Message, Part, TextPart, ToolCallPart, Usage
from studyhall.core.contracts.models import (
    FinishEvent,
    ModelRequest,
    TextDelta,
    ToolCallEvent,
    UsageEvent,
)
from studyhall.core.ports.models import ChatModel

StopReason = Literal["stop", "awaiting-answer", "handoff", "step-limit"]


@dataclass(frozen=True)
class TextOut:
    text: str


@dataclass(frozen=True)
class ToolCallOut:
    part: ToolCallPart


@dataclass(frozen=True)
class ToolResultOut:
    part: ToolCallPart


@dataclass(frozen=True)
class UsageOut:
    usage: Usage
    model: str | None


@dataclass(frozen=True)
class Saved:
    """Persist this snapshot of the assistant message now (a part completed)."""

    message: Message


@dataclass(frozen=True)
class Stopped:
    reason: StopReason


AgentEvent = TextOut | ToolCallOut | ToolResultOut | UsageOut | Saved | Stopped


def add_usage(total: Usage | None, more: Usage) -> Usage | None:
    """Sum what is known; a figure no call reported stays absent, never zero."""

    def plus(a: float | None, b: float | None) -> float | int | None:
        return b if a is None else a if b is None else a + b

    if total is None:
        merged = more
    else:
        merged = Usage(
            input_tokens=plus(total.input_tokens, more.input_tokens),
            output_tokens=plus(total.output_tokens, more.output_tokens),
            cost_usd=plus(total.cost_usd, more.cost_usd),
        )
    if merged.input_tokens is None and merged.output_tokens is None and merged.cost_usd is None:
        return total
    return merged


class AgentRun:
    """One agent's part of a turn. ``message`` is always the latest snapshot."""

    def __init__(
        self,
        *,
        model: ChatModel,
        agent: AgentSpec,
        system: str,
        chat_id: str,
        history: Sequence[Message],
        message: Message,
        max_steps: int,
        new_id: Callable[[str], str],
    ) -> None:
        self._model = model
        self._agent = agent
        self._system = system
        self._chat_id = chat_id
        self._history = tuple(history)
        self._max_steps = max_steps
        self._new_id = new_id
        self._text: list[str] = []  # the text part in flight
        self._dirty = False
        self.message = message
        self.steps = 0

    async def events(self) -> AsyncIterator[AgentEvent]:
        while self.steps < self._max_steps:
            self.steps += 1
            step_calls: list[str] = []
            request = ModelRequest(
                role=self._agent.role,
                messages=(
                    {"role": "system", "content": self._system},
                    *to_provider_messages([*self._history, self.message]),
                ),
                tools=self._agent.tool_specs(),
            )
            async for event in self._model.stream(request):
                if isinstance(event, TextDelta):
                    if event.text:
                        self._text.append(event.text)
                        yield TextOut(event.text)
                elif isinstance(event, ToolCallEvent):
                    if self._close_text():
                        yield Saved(self.message)
                    part = self._accept(event)
                    step_calls.append(part.tool_call_id)
                    yield Saved(self.message)
                    yield ToolCallOut(part)
                    if part.state == "output-error":
                        yield ToolResultOut(part)
                elif isinstance(event, UsageEvent):
                    self._add_usage(event.usage)
                    yield UsageOut(event.usage, event.model)
                elif isinstance(event, FinishEvent):
                    pass  # the step's outcome is decided by its tool calls, not the reason
            if self._close_text() or self._dirty:
                self._dirty = False
                yield Saved(self.message)

            ends_agent = False
            for call_id in step_calls:
                part = self._part(call_id)
                tool = self._agent.tool(part.name)
                if part.state != "input-available" or tool is None or tool.kind != "server":
                    continue
                done, data, ends = self._execute(part)
                self._replace(done, data)
                ends_agent = ends_agent or ends
                yield Saved(self.message)
                yield ToolResultOut(done)

            if any(self._part(c).state == "input-available" for c in step_calls):
                yield Stopped("awaiting-answer")
                return
            if ends_agent:
                yield Stopped("handoff")
                return
            if not step_calls:
                yield Stopped("stop")
                return
        yield Stopped("step-limit")

    def interrupted(self) -> Message:
        """The message as it stands if the run dies now: text so far kept, unrun calls marked.

        Client questions already shown stay pending (the learner can still answer them); a
        server call that never ran is marked ``interrupted``.
        """
        self._close_text()
        parts: list[Part] = []
        for part in self.message.parts:
            if isinstance(part, ToolCallPart) and part.state == "input-available":
                tool = self._agent.tool(part.name)
                if tool is None or tool.kind == "server":
                    part = part.model_copy(update={"state": "interrupted"})
            parts.append(part)
        self.message = self.message.model_copy(update={"parts": tuple(parts)})
        return self.message

    # --- internals ------------------------------------------------------------------------

    def _context(self) -> ToolContext:
        return ToolContext(chat_id=self._chat_id, messages=(*self._history, self.message))

    def _close_text(self) -> bool:
        if not self._text:
            return False
        text = "".join(self._text)
        self._text.clear()
        self._append(TextPart(text=text))
        return True

    def _append(self, *parts: Part) -> None:
        self.message = self.message.model_copy(update={"parts": (*self.message.parts, *parts)})

    def _add_usage(self, usage: Usage) -> None:
        total = add_usage(self.message.usage, usage)
        if total is not self.message.usage:
            self.message = self.message.model_copy(update={"usage": total})
            self._dirty = True

    def _part(self, call_id: str) -> ToolCallPart:
        return next(
            p
            for p in self.message.parts
            if isinstance(p, ToolCallPart) and p.tool_call_id == call_id
        )

    def _fresh_call_id(self, proposed: str) -> str:
        used = {
            p.tool_call_id
            for m in (*self._history, self.message)
            for p in m.parts
            if isinstance(p, ToolCallPart)
        }
        # Providers reuse ids across calls now and then; answers are addressed by id.
        return proposed if proposed and proposed not in used else self._new_id("call")

    def _accept(self, event: ToolCallEvent) -> ToolCallPart:
        call_id = self._fresh_call_id(event.id)
        name = event.name or "unnamed"
        tool = self._agent.tool(name)
        error: str | None = None
        args = event.arguments
        if tool is None:
            error = unknown_tool_error(name, [t.name for t in self._agent.tools])
        elif args is None:
            error = json_error(name, event.raw)
        elif not isinstance(args, dict):
            error = argument_error(name, ["the arguments must be a JSON object, not a list or value"])
        else:
            problems = tool.check(args, self._context())
            if problems:
                error = argument_error(name, problems, tool.fix_hint)
        part = ToolCallPart(
            tool_call_id=call_id,
            name=name,
            input=args if isinstance(args, dict) else {},
            state="output-error" if error else "input-available",
            error=error,
        )
        self._append(part)
        return part

    def _execute(self, part: ToolCallPart) -> tuple[ToolCallPart, tuple[DataPart, ...], bool]:
        tool = self._agent.tool(part.name)
        assert tool is not None and tool.run is not None
        try:
            outcome = tool.run(part.input, self._context())
        except Exception as e:  # noqa: BLE001 — a tool bug must not kill the turn; the model hears of it
            failed = part.model_copy(
                update={"state": "output-error", "error": f"{part.name} failed: {e}"}
            )
            return failed, (), False
        done = part.model_copy(update={"state": "output-available", "output": outcome.output})
        return done, outcome.data, outcome.ends_agent

    def _replace(self, done: ToolCallPart, data: tuple[DataPart, ...]) -> None:
        parts: list[Part] = []
        for p in self.message.parts:
            if isinstance(p, ToolCallPart) and p.tool_call_id == done.tool_call_id:
                parts.append(done)
                parts.extend(data)
            else:
                parts.append(p)
        self.message = self.message.model_copy(update={"parts": tuple(parts)})


def run_agent(
    *,
    model: ChatModel,
    agent: AgentSpec,
    system: str,
    chat_id: str,
    history: Sequence[Message],
    message: Message,
    max_steps: int,
    new_id: Callable[[str], str],
) -> AsyncIterator[AgentEvent]:
    """Convenience: the events of a fresh ``AgentRun`` (use the class to salvage on failure)."""
    return AgentRun(
        model=model, agent=agent, system=system, chat_id=chat_id, history=history,
        message=message, max_steps=max_steps, new_id=new_id,
    ).events()
