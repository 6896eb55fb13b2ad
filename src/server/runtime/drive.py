"""Driving one turn: the agent(s) run, each completed part is saved, then its event goes out.

A turn may run two agents: when the prober files ``probe_done``, the hand-off steer is claimed
and the teacher answers in the same turn. Whatever ends the turn (done, stopped, a provider
or store failure), what the learner already saw is saved and the stream ends with ``finish``
or ``error``; ``turn.outcome`` says how it ended.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from studyhall.core.agents.loop import (
    AgentRun,
    Saved,
    Stopped,
    TextOut,
    ToolCallOut,
    ToolResultOut,
    UsageOut,
    add_usage,
)
from studyhall.core.agents.roster import agent_for
from studyhall.core.agents.spec import AgentSpec
from studyhall.core.contracts.chat import ChatRecord, Message, Usage
from studyhall.core.errors import ModelError, StoreError
from studyhall.core.ports.models import ChatModel
from studyhall.core.ports.system import Clock, Ids
from studyhall.server.runtime import events as ev
from studyhall.server.runtime.seams import TurnOutcome

log = logging.getLogger("studyhall.turns")


class Turn:
    """A running turn: its task, its outcome, and the events it emits (read once)."""

    def __init__(self, chat_id: str) -> None:
        self.chat_id = chat_id
        self._queue: asyncio.Queue[ev.TurnEvent | None] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.outcome = TurnOutcome(chat_id, "error", None, ())

    def emit(self, name: str, data: dict[str, Any]) -> None:
        self._queue.put_nowait(ev.TurnEvent(name, data))

    def close(self) -> None:
        self._queue.put_nowait(None)

    async def events(self) -> AsyncIterator[ev.TurnEvent]:
        while (event := await self._queue.get()) is not None:
            yield event


@dataclass(frozen=True)
class DriveDeps:
    model: ChatModel
    ids: Ids
    clock: Clock
    prompt: Callable[[str], str]  # prompt file name -> text
    save: Callable[[str, Sequence[Message]], ChatRecord]  # persist (upsert) messages
    claim: Callable[[str, Sequence[Message]], list[Message]]  # steers to deliver now
    max_steps: Callable[[], int]
    # Which agent answers (the roster, plus tools other systems register, e.g. job tools).
    agent_for: Callable[[Sequence[Message]], AgentSpec] = agent_for


async def drive(turn: Turn, record: ChatRecord, deps: DriveDeps) -> None:
    chat_id = turn.chat_id
    messages = list(record.messages)
    saved: list[str] = []
    usage: Usage | None = None
    reason = "stop"
    run: AgentRun | None = None
    try:
        steps_left = deps.max_steps()
        while steps_left > 0:
            steers = deps.claim(chat_id, messages)  # e.g. the prober -> teacher hand-off
            if steers:
                deps.save(chat_id, steers)
                messages.extend(steers)
                for steer in steers:
                    turn.emit(*ev.steer(steer))
            agent = deps.agent_for(messages)
            message = Message(
                id=deps.ids.new("msg"), role="assistant", agent=agent.role,
                created_at=deps.clock.now(),
            )
            turn.emit(*ev.message_start(message))
            run = AgentRun(
                model=deps.model,
                agent=agent,
                system=agent.system_prompt(deps.prompt(agent.prompt_name), record.topic, messages),
                chat_id=chat_id,
                history=messages,
                message=message,
                max_steps=steps_left,
                new_id=deps.ids.new,
            )
            async for item in run.events():
                if isinstance(item, Saved):
                    deps.save(chat_id, [item.message])  # on disk before its event goes out
                    if item.message.id not in saved:
                        saved.append(item.message.id)
                elif isinstance(item, TextOut):
                    turn.emit(*ev.text_delta(message.id, item.text))
                elif isinstance(item, ToolCallOut):
                    turn.emit(*ev.tool_call(message.id, item.part))
                elif isinstance(item, ToolResultOut):
                    turn.emit(*ev.tool_result(message.id, item.part))
                elif isinstance(item, UsageOut):
                    usage = add_usage(usage, item.usage)
                    turn.emit(*ev.usage(message.id, agent.role, item.usage, item.model))
                elif isinstance(item, Stopped):
                    reason = item.reason
            steps_left -= run.steps
            if run.message.parts:
                messages.append(run.message)
            run = None
            if reason != "handoff":
                break
        if reason == "handoff":  # the steps ran out before the teacher could speak
            reason = "step-limit"
        turn.emit(*ev.finish(reason, messages))
    except asyncio.CancelledError:
        reason = "stopped"
        _salvage(chat_id, run, saved, messages, deps)
        turn.emit(*ev.finish("stopped", messages))
        raise
    except ModelError as e:
        reason = "error"
        log.warning("[chat %s] %s model call failed: %s", chat_id, e.role, type(e).__name__)
        _salvage(chat_id, run, saved, messages, deps)
        turn.emit(*ev.model_error(e))
    except StoreError as e:
        reason = "error"
        log.error("[chat %s] could not save the session: %s", chat_id, e)
        turn.emit(*ev.store_error(e))
    except Exception:
        reason = "error"
        log.exception("[chat %s] turn failed", chat_id)
        _salvage(chat_id, run, saved, messages, deps)
        turn.emit(*ev.internal_error())
    finally:
        turn.outcome = TurnOutcome(chat_id, reason, usage, tuple(saved))


def _salvage(
    chat_id: str, run: AgentRun | None, saved: list[str], messages: list[Message], deps: DriveDeps
) -> None:
    """Keep what the learner already saw when a run dies (text so far, shown questions)."""
    if run is None:
        return
    message = run.interrupted()
    if not message.parts:
        return
    try:
        deps.save(chat_id, [message])
        messages.append(message)
        if message.id not in saved:
            saved.append(message.id)
    except StoreError as e:
        log.error("[chat %s] could not save the interrupted message: %s", chat_id, e)
