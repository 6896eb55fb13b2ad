"""The turn pipeline (framework-free): one learner message or answer in, one streamed turn out.

Order, on every path:
  begin (single-flight per chat: a second request gets ``BusyError`` -> 409)
  -> claim queued steers exactly once -> persist the learner input BEFORE any model call
  -> run the agent(s), persisting each completed part before its event goes out
  -> after-turn seams, each error-contained (usage fold, title, ``hooks``)
  -> end turn (finally).
A turn runs in its own task and keeps going if the client disconnects: the record gets every
part, and the next request sees 409 until it ends.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from studyhall.core.agents.quiz_request import quiz_aware
from studyhall.core.agents.roster import agent_for
from studyhall.core.agents.spec import AgentSpec
from studyhall.core.agents.tools import Tool
from studyhall.core.agents.turn_events import Finish, MessageStart, Steer, ToolResult
from studyhall.core.agents.turn_events import TextDelta as TurnTextDelta
from studyhall.core.classroom.steers import claim_steers, pending_handoff
from studyhall.core.classroom.turn_state import close_dangling, owes_reply, pending_client_calls
from studyhall.core.contracts.chat import (
    MAX_MESSAGE_CHARS,
    MAX_TOPIC_CHARS,
    AgentRole,
    ChatRecord,
    DataPart,
    Message,
    TextPart,
    ToolCallPart,
)
from studyhall.core.contracts.models import AS_WRITTEN_PART
from studyhall.core.contracts.steers import delivered_steer_ids, steer_part
from studyhall.core.errors import (
    BusyError,
    Conflict,
    InvalidInput,
    NotFound,
)
from studyhall.core.guardrails.intent import route
from studyhall.core.ports.models import ChatModel
from studyhall.core.ports.storage import ChatStore, SettingsStore
from studyhall.core.ports.system import Clock, Ids
from studyhall.server.runtime.after_turn import AfterTurn, TurnHook, TurnOutcome
from studyhall.server.runtime.agent_turn import AgentTurnDeps, Turn, run_agent_turn
from studyhall.server.runtime.answers import answer_output
from studyhall.server.runtime.supervisor import Supervisor

log = logging.getLogger("studyhall.turns")



class TurnRunner:
    def __init__(
        self,
        *,
        chat_store: ChatStore,
        chat_model: ChatModel,
        settings_store: SettingsStore,
        clock: Clock,
        ids: Ids,
        prompt: Callable[[str], str],
        supervisor: Supervisor,
        hooks: Sequence[TurnHook] = (),
        no_key: Callable[[str], str | None] = lambda role: None,
    ) -> None:
        self._store = chat_store
        self._model = chat_model
        self._supervisor = supervisor
        self._settings = settings_store
        self._clock = clock
        self._ids = ids
        self._prompt = prompt
        # What runs after each turn; ``hooks`` is where the library's trigger plugs in.
        self.after_turn = AfterTurn(
            chat_store=chat_store, chat_model=chat_model, clock=clock, prompt=prompt,
            supervisor=supervisor, hooks=hooks,
        )
        self.hooks: list[TurnHook] = self.after_turn.hooks
        self._deps = AgentTurnDeps(
            model=chat_model, ids=ids, clock=clock, prompt=prompt, save=self._save,
            claim=self._claim, max_steps=lambda: settings_store.load().max_steps_per_turn,
            agent_for=self._agent_for, no_key=no_key,
        )
        self._turns: dict[str, Turn] = {}
        self._queued: dict[str, list[Message]] = {}
        # Tools other systems give an agent role (the workbench's job tools for the teacher).
        self._extra_tools: dict[str, tuple[Tool, ...]] = {}
        # Tools another system wraps by name, for every agent that has them (quiz gating).
        self._wrappers: dict[str, Callable[[Tool], Tool]] = {}

    # --- public API -------------------------------------------------------------------------

    def create_chat(self, topic: str | None = None) -> ChatRecord:
        """A new, empty session (the prober greets on the learner's first message)."""
        if topic is not None:
            if not isinstance(topic, str):
                raise InvalidInput('"topic" must be a string.')
            topic = " ".join(topic.split()) or None
            if topic is not None and len(topic) > MAX_TOPIC_CHARS:
                raise InvalidInput(
                    f"The topic is {len(topic)} characters; keep it under {MAX_TOPIC_CHARS}."
                )
        now = self._clock.now()
        record = ChatRecord(
            id=self._ids.new("chat"), topic=topic, created_at=now, updated_at=now, messages=()
        )
        self._store.create(record)
        return record

    def add_tools(self, role: AgentRole, tools: Sequence[Tool]) -> None:
        """Give the ``role`` agent more tools from the next turn on (e.g. the job tools)."""
        self._extra_tools[role] = (*self._extra_tools.get(role, ()), *tools)

    def wrap_tool(self, name: str, wrap: Callable[[Tool], Tool]) -> None:
        """Every agent's ``name`` tool becomes ``wrap(tool)`` from the next turn on (e.g. the
        learner model's prerequisite gate around ``quiz``)."""
        self._wrappers[name] = wrap

    def _agent_for(self, messages: Sequence[Message]) -> AgentSpec:
        spec = quiz_aware(agent_for(messages))  # "quiz me" -> this agent quizzes now
        extra = self._extra_tools.get(spec.role)
        if extra:
            spec = replace(spec, tools=(*spec.tools, *extra))
        if self._wrappers:
            spec = replace(spec, tools=tuple(
                self._wrappers[t.name](t) if t.name in self._wrappers else t for t in spec.tools))
        return spec

    def running(self, chat_id: str) -> bool:
        return chat_id in self._turns

    def queue_steer(self, chat_id: str, message: Message) -> None:
        """Queue a steer for the chat's next turn (claimed once; a delivered id is dropped)."""
        if steer_part(message) is None:
            raise ValueError("queue_steer takes a steer message (one with a SteerPart)")
        self._queued.setdefault(chat_id, []).append(message)

    async def send_message(self, chat_id: str, text: str, message_id: str | None = None,
                           as_written: bool = False) -> Turn:
        """Persist the learner's message and start the turn that answers it. The intent
        router decides first: a request clearly outside learning gets its canned reply with
        no model call. ``as_written``: the guardrails send this text unscrubbed."""
        if not isinstance(text, str) or not text.strip():
            raise InvalidInput("The message is empty; write something to send.")
        if len(text) > MAX_MESSAGE_CHARS:
            raise InvalidInput(
                f"The message is {len(text)} characters; the limit is {MAX_MESSAGE_CHARS}."
            )
        record = self._record(chat_id)
        turn = self._begin(chat_id)
        try:
            messages = list(record.messages)
            if message_id is not None and any(m.id == message_id for m in messages):
                # A retried send (same id): never append twice; answer it if still owed.
                if not owes_reply(messages):
                    raise Conflict("This message was already sent and answered.")
                outgoing: list[Message] = []
                steers: list[Message] = []
            else:
                marked = (DataPart(name=AS_WRITTEN_PART, data={}),) if as_written else ()
                learner = Message(
                    id=message_id or self._ids.new("msg"),
                    role="user",
                    parts=(TextPart(text=text), *marked),
                    created_at=self._clock.now(),
                )
                steers = self._claim(chat_id, messages)
                outgoing = [*close_dangling(messages), *steers, learner]
            if outgoing:
                record = self._save(chat_id, outgoing)
                for steer in steers:
                    turn.emit(Steer.of(steer))
        except BaseException:
            self._end(chat_id)
            raise
        decided = route(text)
        if decided.reply is not None and owes_reply(record.messages):
            return self._redirect(turn, record, decided.reply)
        return self._start(turn, record)

    async def answer(self, chat_id: str, tool_call_id: str, answer: Any) -> Turn:
        """Grade and persist the learner's answer, then start the continuation turn."""
        record = self._record(chat_id)
        turn = self._begin(chat_id)
        try:
            message, part = _find_call(record, tool_call_id)
            if part.state != "input-available":
                raise Conflict("This question was already answered or closed.")
            output = answer_output(part, answer, self._clock.now())
            done = part.model_copy(update={"state": "output-available", "output": output})
            updated = message.model_copy(
                update={"parts": tuple(done if p is part else p for p in message.parts)}
            )
            record = self._save(chat_id, [updated])
            turn.emit(ToolResult(updated.id, done))
        except BaseException:
            self._end(chat_id)
            raise
        if pending_client_calls(updated):  # the other questions of that step still wait
            turn.emit(Finish.of("awaiting-answer", record.messages))
            self._finish(turn, TurnOutcome(chat_id, "awaiting-answer", None, ()))
            return turn
        return self._start(turn, record)

    async def resume(self, chat_id: str) -> Turn:
        """Run a turn on the record as it stands (retry after an error, a wake-up after a steer)."""
        record = self._record(chat_id)
        turn = self._begin(chat_id)
        try:
            steers = self._claim(chat_id, record.messages)
            if steers:
                record = self._save(chat_id, steers)
                for steer in steers:
                    turn.emit(Steer.of(steer))
            if not owes_reply(record.messages):
                raise Conflict("Nothing to continue: the last turn is complete or waits for you.")
        except BaseException:
            self._end(chat_id)
            raise
        return self._start(turn, record)

    async def stop(self, chat_id: str) -> bool:
        """Stop the running turn (what was streamed so far is kept). False if none runs."""
        turn = self._turns.get(chat_id)
        if turn is None or turn.task is None:
            return False
        turn.task.cancel()
        await asyncio.gather(turn.task, return_exceptions=True)
        return True

    # --- the turn ---------------------------------------------------------------------------

    def _begin(self, chat_id: str) -> Turn:
        if chat_id in self._turns:
            raise BusyError("A turn is already running in this session; wait for it to finish.")
        turn = Turn(chat_id)
        self._turns[chat_id] = turn
        return turn

    def _end(self, chat_id: str) -> None:
        self._turns.pop(chat_id, None)

    def _redirect(self, turn: Turn, record: ChatRecord, reply: str) -> Turn:
        """The router's canned reply, persisted as the agent's message and streamed; no
        model is called, so no after-turn seam (title, extraction) runs either."""
        try:
            message = Message(
                id=self._ids.new("msg"), role="assistant",
                agent=self._agent_for(record.messages).role,
                parts=(TextPart(text=reply),), created_at=self._clock.now(),
            )
            record = self._save(turn.chat_id, [message])
            turn.emit(MessageStart.of(message))
            turn.emit(TurnTextDelta(message.id, reply))
            turn.emit(Finish.of("stop", record.messages))
        finally:
            turn.close()
            self._end(turn.chat_id)
        return turn

    def _start(self, turn: Turn, record: ChatRecord) -> Turn:
        # A supervised task: shutdown cancels it, and it saves what was shown and marks the
        # calls it did not run as interrupted.
        turn.task = self._supervisor.spawn(f"turn {turn.chat_id}", self._run(turn, record))
        return turn

    async def _run(self, turn: Turn, record: ChatRecord) -> None:
        try:
            await run_agent_turn(turn, record, self._deps)
        finally:
            self._finish(turn, turn.outcome)

    def _finish(self, turn: Turn, outcome: TurnOutcome) -> None:
        """After-turn seams (never touching the response), then end the turn — always."""
        try:
            self.after_turn.run(outcome)
        finally:
            turn.close()
            self._end(turn.chat_id)

    # --- record helpers ---------------------------------------------------------------------

    def _record(self, chat_id: str) -> ChatRecord:
        record = self._store.get(chat_id)
        if record is None:
            raise NotFound(f"No session {chat_id!r}; it may have been deleted.")
        return record

    def _save(self, chat_id: str, messages: Sequence[Message]) -> ChatRecord:
        record = self._store.save_messages(chat_id, messages, self._clock.now())
        if self._queued.get(chat_id):  # a queued steer leaves the queue once it is on disk
            delivered = delivered_steer_ids(record.messages)
            self._queued[chat_id] = [
                m for m in self._queued[chat_id] if _steer_id(m) not in delivered
            ]
        return record

    def _claim(self, chat_id: str, messages: Sequence[Message]) -> list[Message]:
        """Steers to deliver now: the derived hand-off, then queued ones; each id once."""
        handoff = pending_handoff(chat_id, messages, self._clock.now())
        queued = self._queued.get(chat_id, [])
        return claim_steers(messages, [*([handoff] if handoff else []), *queued])


def _steer_id(message: Message) -> str | None:
    marker = steer_part(message)
    return marker.steer_id if marker else None


def _find_call(record: ChatRecord, tool_call_id: str) -> tuple[Message, ToolCallPart]:
    for message in record.messages:
        for part in message.parts:
            if isinstance(part, ToolCallPart) and part.tool_call_id == tool_call_id:
                return message, part
    raise NotFound(f"No question {tool_call_id!r} in this session.")
