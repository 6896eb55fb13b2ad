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

from studyhall.core.agents.action_step import calm_line, json_step
from studyhall.core.agents.citations import MarkerFilter
from studyhall.core.agents.printed_calls import HeldText, find_printed_calls
from studyhall.core.agents.roster import AgentSpec
from studyhall.core.agents.step_request import step_request
from studyhall.core.agents.structured import CUT_REASONS
from studyhall.core.agents.tools import ToolContext, call_problem
from studyhall.core.agents.turn_events import ToolCall, ToolResult, TurnTextDelta, UsageReport
from studyhall.core.classroom.turn_state import mark_cut, with_cut_text
from studyhall.core.contracts import models as provider
from studyhall.core.contracts.chat import (
    DataPart,
    Message,
    Part,
    TextPart,
    ToolCallPart,
    Usage,
    add_usage,
)
from studyhall.core.contracts.model_capabilities import UNKNOWN, ModelCapabilities
from studyhall.core.ports.models import ChatModel

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
        capabilities: ModelCapabilities = UNKNOWN,
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
        self._capabilities = capabilities
        # A model that cannot call tools answers each step as JSON (core.agents.action_step).
        self._json_mode = capabilities.tools is False and bool(agent.tools)
        self._gave_up = False  # its JSON repairs ran out: plain text for the rest of the run
        self._repair = False  # the step's call was wrong or cut: ask again as JSON
        self._wanted: str | None = None  # the tool a rejected printed call was for
        self._called = False  # any tool call in this run
        self._insisted = False  # a small model's prober was asked once for its quiz as JSON

    async def events(self) -> AsyncIterator[AgentEvent]:
        message_id = self.message.id  # every snapshot keeps the id the turn announced
        while self.steps < self._max_steps:
            self.steps += 1
            step_calls: list[str] = []
            if self._json_mode:
                async for item in self._json_step(message_id, step_calls):
                    yield item
            else:
                async for item in self._stream_step(message_id, step_calls, self._request()):
                    yield item
            if (tail := self._held_text()):  # a marker the check held at the step's end
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
            self._called = self._called or bool(step_calls)
            if not step_calls and not self._repair:
                if self._insist_on_a_quiz():
                    continue  # one more step, as JSON: the quiz this prober did not ask
                yield Stopped("stop")
                return
        yield Stopped("step-limit")

    def _insist_on_a_quiz(self) -> bool:
        """A small local model's prober that answered with text alone (its template takes
        tools, the model calls none: SmolLM2 on llama.cpp) is asked once more, as a JSON step,
        for the quiz that finds the learner's level."""
        if (self._insisted or self._called or self._json_mode or self._gave_up
                or self._agent.role != "prober" or not self._capabilities.small_context
                or self._agent.tool("quiz") is None):
            return False
        self._insisted = self._json_mode = True
        return True

    def _request(self, *, tools: bool = True) -> provider.ModelRequest:
        """This step's request: the system prompt and the history, fitted to the context."""
        return step_request(role=self._agent.role, system=self._system, tools=self._agent.tools,
                            history=[*self._history, self.message],
                            capabilities=self._capabilities, json_mode=self._json_mode,
                            with_tools=tools)

    async def _stream_step(self, message_id: str, step_calls: list[str],
                           request: provider.ModelRequest) -> AsyncIterator[AgentEvent]:
        """One streamed step; text that may be a printed tool call is held back until the
        reply is whole, then read as calls (never shown as conversation)."""
        held = HeldText()  # text not shown yet: it may begin a printed call
        reason = "stop"
        self._repair = False
        async for event in self._model.stream(request):
            if isinstance(event, provider.StreamedText):
                shown = held.feed(event.text)
                if shown:
                    for item in self._show_text(message_id, shown):
                        yield item
            elif isinstance(event, provider.ToolCallEvent):
                for item in await self._take_call(message_id, event, step_calls):
                    yield item
            elif isinstance(event, provider.UsageEvent):
                self._add_usage(event.usage)
                yield UsageReport(message_id, self._agent.role, event.model, event.usage)
            elif isinstance(event, provider.FinishEvent):
                reason = event.reason
        if held.text:
            async for item in self._read_held(held.text, reason, message_id, step_calls):
                yield item

    async def _read_held(self, held: str, reason: str, message_id: str,
                         step_calls: list[str]) -> AsyncIterator[AgentEvent]:
        """Text held back at a step's end: printed calls become calls (checked like any call);
        the rest is shown. A printed call the model did not finish is never half-read."""
        printed = find_printed_calls(held, frozenset(t.name for t in self._agent.tools))
        if not printed.calls and reason not in CUT_REASONS:
            for item in self._show_text(message_id, held):
                yield item
            return
        if printed.text and reason not in CUT_REASONS:
            for item in self._show_text(message_id, printed.text):
                yield item
        if self._agent.tools and not self._gave_up:
            self._json_mode = True  # this model prints its calls: ask it for JSON from now on
        if reason in CUT_REASONS:
            self._repair = self._json_mode  # cut mid-call: asked again, as JSON
            return
        for call in printed.calls:
            event = provider.ToolCallEvent(id=self._new_id("call"), name=call.name or "unnamed",
                                           arguments=call.arguments,
                                           raw=call.raw if call.arguments is None else "")
            if await self._problem(event) is not None:
                self._wanted = event.name
                self._repair = self._json_mode  # asked again as JSON, never shown half-right
                continue
            for item in await self._take_call(message_id, event, step_calls):
                yield item

    async def _json_step(self, message_id: str,
                         step_calls: list[str]) -> AsyncIterator[AgentEvent]:
        """One step as a JSON answer (``core.agents.action_step``); after its repairs run out,
        a plain-text step and one calm line instead."""
        self._repair = False
        answer = await json_step(self._model, self._request(), self._problem, self._new_id,
                                 tools=self._agent.tool_specs(),
                                 schema=self._capabilities.json_schema is not False)
        for model_name, usage in answer.usages:
            self._add_usage(usage)
            yield UsageReport(message_id, self._agent.role, model_name, usage)
        if answer.gave_up:
            self._json_mode, self._gave_up = False, True
            async for item in self._stream_step(message_id, step_calls,
                                                self._request(tools=False)):
                yield item
            self._repair = False
            line = calm_line(answer.wanted or self._wanted)
            for item in self._show_text(message_id, ("\n\n" if self._text else "") + line):
                yield item
            return
        if answer.say:
            for item in self._show_text(message_id, answer.say):
                yield item
        if answer.call is not None:
            for item in await self._take_call(message_id, answer.call, step_calls):
                yield item

    async def _take_call(self, message_id: str, event: provider.ToolCallEvent,
                         step_calls: list[str]) -> list[AgentEvent]:
        """A call of this step, recorded (checked: a rejected one goes back to the model)."""
        tail = self._held_text()  # the text before the call, whole
        out: list[AgentEvent] = [TurnTextDelta(message_id, tail)] if tail else []
        if self._close_text():
            out.append(Saved(self.message))
        part = await self._accept(event)
        step_calls.append(part.tool_call_id)
        out += [Saved(self.message), ToolCall(message_id, part)]
        if part.state == "output-error":
            out.append(ToolResult(message_id, part))
        return out

    def _show_text(self, message_id: str, text: str) -> list[AgentEvent]:
        if self._markers is not None:  # a study session: markers naming no passage go
            text = self._markers.feed(text)
            if not text:
                return []
        self._text.append(text)
        out: list[AgentEvent] = [TurnTextDelta(message_id, text)]
        self._unsaved += len(text)
        if self._unsaved >= CHECKPOINT_CHARS:
            self._unsaved = 0
            out.append(Saved(with_cut_text(self.message, "".join(self._text))))
        return out

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

    async def _problem(self, event: provider.ToolCallEvent) -> str | None:
        return await call_problem(self._agent.tools, event, self._context())

    async def _accept(self, event: provider.ToolCallEvent) -> ToolCallPart:
        call_id = self._fresh_call_id(event.id)
        error = await self._problem(event)
        args = event.arguments
        part = ToolCallPart(
            tool_call_id=call_id,
            name=event.name or "unnamed",
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

