"""The agent loop: stream the model, run server tools, stop at client tools, cap the steps —
for the agent an ``AgentSpec`` declares (its model role, its prompt file, its tools, its session
notes).

One ``AgentRun`` builds one assistant message. It yields the turn's own stream events
(``core.agents.turn_events``: text, tool calls and results, usage), which the runtime passes on
unchanged, and a ``Saved`` snapshot every time a part completes (persisted before the matching
event goes out), so a crash loses at most the part in flight. Written only against the
``ChatModel`` port.

Text in flight is saved as well, every ``CHECKPOINT_CHARS`` characters, marked incomplete
(``core.classroom.turn_state``): a crash mid-answer keeps what the learner had read.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from studyhall.core.agents.citations import MarkerFilter
from studyhall.core.agents.tools import (
    Tool,
    ToolContext,
    argument_error,
    json_error,
    unknown_tool_error,
)
from studyhall.core.agents.turn_events import ToolCall, ToolResult, TurnTextDelta, UsageReport
from studyhall.core.classroom.record_messages import to_provider_messages
from studyhall.core.classroom.turn_state import mark_cut, with_cut_text
from studyhall.core.contracts import models as provider
from studyhall.core.contracts.chat import (
    AgentRole,
    DataPart,
    Message,
    Part,
    TextPart,
    ToolCallPart,
    Usage,
    add_usage,
)
from studyhall.core.ports.models import ChatModel

# (topic, transcript) -> the session-specific notes appended to the base prompt.
NotesFn = Callable[[str | None, Sequence[Message]], str]


@dataclass(frozen=True)
class AgentSpec:
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


StopReason = Literal["stop", "awaiting-answer", "handoff", "step-limit"]
# Streamed text is checkpointed (saved, marked incomplete) each time this much more arrived.
CHECKPOINT_CHARS = 300


@dataclass(frozen=True)
class Saved:
    """Persist this snapshot of the assistant message now (a part completed)."""

    message: Message


@dataclass(frozen=True)
class Stopped:
    reason: StopReason


# What a run yields: stream events for the learner, and two signals for the runtime.
AgentEvent = TurnTextDelta | ToolCall | ToolResult | UsageReport | Saved | Stopped


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
        citable: int | None = None,
    ) -> None:
        self._model = model
        self._agent = agent
        self._system = system
        self._chat_id = chat_id
        self._history = tuple(history)
        self._max_steps = max_steps
        self._new_id = new_id
        self._text: list[str] = []  # the text part in flight
        self._unsaved = 0  # characters of it streamed since the last save
        self._dirty = False
        # A session studying a note: markers [1]..[citable] name its passages, others are
        # removed while the text streams (Ask's check); None leaves the text as written.
        self._markers = MarkerFilter(citable) if citable is not None else None
        self.message = message
        self.steps = 0

    async def events(self) -> AsyncIterator[AgentEvent]:
        message_id = self.message.id  # every snapshot keeps the id the turn announced
        while self.steps < self._max_steps:
            self.steps += 1
            step_calls: list[str] = []
            request = provider.ModelRequest(
                role=self._agent.role,
                messages=(
                    {"role": "system", "content": self._system},
                    *to_provider_messages([*self._history, self.message]),
                ),
                tools=self._agent.tool_specs(),
            )
            async for event in self._model.stream(request):
                if isinstance(event, provider.StreamedText):
                    text = self._markers.feed(event.text) if self._markers else event.text
                    if text:
                        self._text.append(text)
                        yield TurnTextDelta(message_id, text)
                        self._unsaved += len(text)
                        if self._unsaved >= CHECKPOINT_CHARS:
                            self._unsaved = 0
                            yield Saved(with_cut_text(self.message, "".join(self._text)))
                elif isinstance(event, provider.ToolCallEvent):
                    if (tail := self._held_text()):
                        yield TurnTextDelta(message_id, tail)
                    if self._close_text():
                        yield Saved(self.message)
                    part = await self._accept(event)
                    step_calls.append(part.tool_call_id)
                    yield Saved(self.message)
                    yield ToolCall(message_id, part)
                    if part.state == "output-error":
                        yield ToolResult(message_id, part)
                elif isinstance(event, provider.UsageEvent):
                    self._add_usage(event.usage)
                    yield UsageReport(message_id, self._agent.role, event.model, event.usage)
                elif isinstance(event, provider.FinishEvent):
                    pass  # the step's outcome is decided by its tool calls, not the reason
            if (tail := self._held_text()):
                yield TurnTextDelta(message_id, tail)
            if self._close_text() or self._dirty:
                self._dirty = False
                yield Saved(self.message)

            ends_agent = False
            for call_id in step_calls:
                part = self._part(call_id)
                tool = self._agent.tool(part.name)
                if part.state != "input-available" or tool is None or tool.kind != "server":
                    continue
                done, data, ends = await self._execute(part)
                self._replace(done, data)
                ends_agent = ends_agent or ends
                yield Saved(self.message)
                yield ToolResult(message_id, done)

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

    def interrupted(self, *, cut: bool = False) -> Message:
        """The message as it stands if the run dies now: text so far kept, unrun calls marked.

        Client questions already shown stay pending (the learner can still answer them); a
        server call that never ran is marked ``interrupted``. ``cut``: the stream broke, so the
        text in flight is marked incomplete (a stop keeps it as the learner's chosen end).
        """
        self._held_text()
        in_flight = self._close_text()
        parts: list[Part] = []
        for part in self.message.parts:
            if isinstance(part, ToolCallPart) and part.state == "input-available":
                tool = self._agent.tool(part.name)
                if tool is None or tool.kind == "server":
                    part = part.model_copy(update={"state": "interrupted"})
            parts.append(part)
        self.message = self.message.model_copy(update={"parts": tuple(parts)})
        if cut and in_flight:
            self.message = mark_cut(self.message)
        return self.message

    # --- internals ------------------------------------------------------------------------

    def _context(self) -> ToolContext:
        return ToolContext(chat_id=self._chat_id, messages=(*self._history, self.message))

    def _held_text(self) -> str:
        """What the marker check still holds (a possible unfinished ``[12``), released."""
        tail = self._markers.flush() if self._markers else ""
        if tail:
            self._text.append(tail)
        return tail

    def _close_text(self) -> bool:
        if not self._text:
            return False
        text = "".join(self._text)
        self._text.clear()
        self._unsaved = 0
        self._append(TextPart(text=text))
        return True

    def _append(self, *parts: Part) -> None:
        self.message = self.message.model_copy(update={"parts": (*self.message.parts, *parts)})

    def _add_usage(self, usage: Usage) -> None:
        total = add_usage(self.message.usage, usage)
        if total != self.message.usage:  # a call that reported nothing changes nothing
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

    async def _accept(self, event: provider.ToolCallEvent) -> ToolCallPart:
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
            checked = tool.check(args, self._context())
            problems = await checked if inspect.isawaitable(checked) else checked
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

    async def _execute(
        self, part: ToolCallPart
    ) -> tuple[ToolCallPart, tuple[DataPart, ...], bool]:
        tool = self._agent.tool(part.name)
        assert tool is not None and tool.run is not None
        try:
            ran = tool.run(part.input, self._context())
            outcome = await ran if inspect.isawaitable(ran) else ran
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

