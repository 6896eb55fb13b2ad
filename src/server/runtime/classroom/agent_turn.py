"""One turn of the agents: they run, each completed part is saved, then its event goes out.

A turn may run two agents: when the prober files ``probe_done``, the hand-off steer is claimed
and the teacher answers in the same turn. Whatever ends the turn (done, stopped, a provider
or store failure), what the learner already saw is saved and the stream ends with ``finish``
or ``error``; the last item yielded is ``TurnEnded``, how it ended. A failure is saved with the
record (on its last message, ``core.classroom.turn_state``) so a reload still says why, and a
turn that resumes a message a failure or crash cut off continues that message from its last
complete point. The events are the loop's own typed values (``core.agents.turn_events``),
yielded to the turn runner, which passes them on unchanged for the route to encode; nothing
here calls back into the runner.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from studyhall.core.agents.loop import AgentRun, Saved, Stopped
from studyhall.core.agents.roster import AgentRoster, AgentSpec
from studyhall.core.agents.study_material import citable_passages
from studyhall.core.agents.turn_events import (
    Finish,
    MessageStart,
    Steer,
    TurnError,
    TurnEvent,
    UsageReport,
)
from studyhall.core.classroom.turn_state import (
    has_failure,
    is_cut,
    resume_point,
    with_failure,
    without_failure,
)
from studyhall.core.contracts.chat import ChatRecord, Message, Usage, add_usage
from studyhall.core.contracts.model_capabilities import ModelCapabilities
from studyhall.core.contracts.settings import ModelRole
from studyhall.core.errors import ModelAuthError, ModelError, StoreError
from studyhall.core.ports.models import ChatModel
from studyhall.core.ports.system import Clock, Ids
from studyhall.server.runtime.classroom.turn_board import TurnBoard
from studyhall.server.runtime.reactions import TurnEnded

log = logging.getLogger("studyhall.turns")


@dataclass(frozen=True)
class AgentTurnDeps:
    """What a turn works with: collaborators below the turn runner, never the runner itself."""

    model: ChatModel
    ids: Ids
    clock: Clock
    prompt: Callable[[str], str]  # prompt file name -> text
    board: TurnBoard  # saves messages (dropping delivered steers), claims steers
    roster: AgentRoster  # which agent answers, with the tools the app gives its role
    # Why an agent role cannot be called at all (no key saved), told without calling it.
    no_key: Callable[[str], str | None]
    # What the role's model can do (tools, JSON schema, context): how its steps are asked.
    capabilities: Callable[[ModelRole], ModelCapabilities]


async def run_agent_turn(record: ChatRecord, deps: AgentTurnDeps,
                         max_steps: int) -> AsyncIterator[TurnEvent | TurnEnded]:
    """Run the turn on ``record``, yielding its events as data and, last, ``TurnEnded``: how
    it ended, for the runner to publish. A stopped turn yields its ``finish`` and its
    ``TurnEnded`` before the cancellation goes on."""
    chat_id = record.id
    messages = list(record.messages)
    saved: list[str] = []
    usage: Usage | None = None
    reason = "stop"
    run: AgentRun | None = None
    original: Message | None = None  # the cut-off message this run continues, as recorded
    try:
        steps_left = max_steps
        _clear_failure(chat_id, messages, deps)
        while steps_left > 0:
            steers = deps.board.claim(chat_id, messages)  # e.g. the prober -> teacher hand-off
            if steers:
                deps.board.save(chat_id, steers)
                messages.extend(steers)
                for steer in steers:
                    yield Steer.of(steer)
            agent, message = _next_message(messages, deps)
            lacking = deps.no_key(agent.role)
            if lacking is not None:
                raise ModelAuthError(lacking, role=agent.role)  # at once, not after a call
            original = next((m for m in record.messages if m.id == message.id), None)
            if original is not None:
                messages.pop()  # the cut-off message: this run writes it again
            yield MessageStart.of(message)
            capabilities = deps.capabilities(agent.role)
            run = AgentRun(
                model=deps.model,
                agent=agent,
                system=agent.system_prompt(deps.prompt(prompt_for(agent, capabilities)),
                                           record.topic, messages),
                chat_id=chat_id,
                history=messages,
                message=message,
                max_steps=steps_left,
                new_id=deps.ids.new,
                capabilities=capabilities,
                citable=citable_passages(messages),
            )
            async for item in run.events():
                if isinstance(item, Saved):
                    deps.board.save(chat_id, [item.message])  # on disk before its event goes out
                    if item.message.id not in saved:
                        saved.append(item.message.id)
                elif isinstance(item, Stopped):
                    reason = item.reason
                else:
                    if isinstance(item, UsageReport):
                        usage = add_usage(usage, item.usage)
                    yield item
            steps_left -= run.steps
            if run.message.parts:
                messages.append(run.message)
            run = None
            if reason != "handoff":
                break
        if reason == "handoff":  # the steps ran out before the teacher could speak
            reason = "step-limit"
        yield Finish.of(reason, messages)
    except asyncio.CancelledError:
        reason = "stopped"
        _salvage(chat_id, run, saved, messages, deps, original=original)
        yield Finish.of("stopped", messages)
        yield TurnEnded(chat_id, reason, usage, tuple(saved))
        raise
    except ModelError as e:
        reason = "error"
        log.warning("[chat %s] %s model call failed: %s", chat_id, e.role, type(e).__name__)
        error = TurnError.from_model(e)
        _salvage(chat_id, run, saved, messages, deps, failure=error, original=original)
        yield error
    except StoreError as e:
        reason = "error"
        log.error("[chat %s] could not save the session: %s", chat_id, e)
        yield TurnError.from_store(e)
    except Exception:
        reason = "error"
        log.exception("[chat %s] turn failed", chat_id)
        error = TurnError.internal()
        _salvage(chat_id, run, saved, messages, deps, failure=error, original=original)
        yield error
    yield TurnEnded(chat_id, reason, usage, tuple(saved))


def prompt_for(agent: AgentSpec, capabilities: ModelCapabilities) -> str:
    """The agent's prompt file: the compact variant for a model with a small context."""
    if capabilities.small_context:
        return agent.prompt_name.replace(".md", ".compact.md")
    return agent.prompt_name


def _next_message(messages: list[Message], deps: AgentTurnDeps) -> tuple[AgentSpec, Message]:
    """The agent that speaks now and the message it writes: a cut-off last message of that
    agent is continued from its last complete point (same id: it replaces the partial one);
    otherwise a new message."""
    if messages and is_cut(messages[-1]):
        restored = resume_point(messages[-1])
        agent = deps.roster.agent_for([*messages[:-1], restored] if restored.parts else messages[:-1])
        if restored.agent == agent.role:
            return agent, restored
    else:
        agent = deps.roster.agent_for(messages)
    return agent, Message(
        id=deps.ids.new("msg"), role="assistant", agent=agent.role, created_at=deps.clock.now()
    )


def _clear_failure(chat_id: str, messages: list[Message], deps: AgentTurnDeps) -> None:
    """A retried turn no longer carries the last one's failure on the learner's message."""
    if messages and not is_cut(messages[-1]) and has_failure(messages[-1]):
        messages[-1] = without_failure(messages[-1])
        deps.board.save(chat_id, [messages[-1]])


def _salvage(
    chat_id: str,
    run: AgentRun | None,
    saved: list[str],
    messages: list[Message],
    deps: AgentTurnDeps,
    *,
    failure: TurnError | None = None,
    original: Message | None = None,
) -> None:
    """Keep what the learner already saw when a run dies (text so far, shown questions), and
    the failure, on the record's last message, so a reload still says why. A retry of a
    cut-off message that died before adding anything keeps the message as it was."""
    message = run.interrupted(cut=failure is not None) if run is not None else None
    if (message is not None and original is not None
            and len(message.parts) <= len(resume_point(original).parts)):
        message = original if failure is not None else without_failure(original)
    if message is None or not message.parts:
        if failure is None or not messages:
            return
        message = messages.pop()  # nothing new to keep: the failure goes on the last message
    if failure is not None:
        message = with_failure(message, failure.data)
    try:
        deps.board.save(chat_id, [message])
        messages.append(message)
        if message.role == "assistant" and message.id not in saved:
            saved.append(message.id)
    except StoreError as e:
        log.error("[chat %s] could not save the interrupted message: %s", chat_id, e)
