"""The turn pipeline (framework-free): one learner message or answer in, one streamed turn out.

Order, on every path:
  begin (single-flight per chat: a second request gets ``BusyError`` -> 409)
  -> claim queued steers exactly once -> persist the learner input BEFORE any model call
  -> run the agent(s), persisting each completed part before its event goes out
  -> after-turn seams, each error-contained (usage fold, title, ``TurnEnded`` published)
  -> end turn (finally).
A turn runs in its own task and keeps going if the client disconnects: the record gets every
part, and the next request sees 409 until it ends.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from studyhall.core.agents.roster import AgentRoster, ToolWrap
from studyhall.core.agents.tools import Tool
from studyhall.core.agents.turn_events import Finish, MessageStart, Steer, ToolResult, TurnTextDelta
from studyhall.core.classroom.phases import approves_plan
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
from studyhall.core.contracts.model_capabilities import ModelCapabilities
from studyhall.core.contracts.models import AS_WRITTEN_PART
from studyhall.core.contracts.quiz import QuizOutput
from studyhall.core.contracts.settings import ModelRole
from studyhall.core.errors import (
    BusyError,
    Conflict,
    InvalidInput,
    NotFound,
    StudyhallError,
)
from studyhall.core.guardrails.intent import route
from studyhall.core.ports.models import ChatModel
from studyhall.core.ports.storage import ChatStore, SettingsStore
from studyhall.core.ports.system import Clock, Ids
from studyhall.server.runtime.classroom.after_turn import AfterTurn
from studyhall.server.runtime.classroom.agent_turn import AgentTurnDeps, run_agent_turn
from studyhall.server.runtime.classroom.answers import answer_output
from studyhall.server.runtime.classroom.turn_board import RunningTurn, TurnBoard
from studyhall.server.runtime.reactions import (
    PlanApproved,
    QuizGraded,
    Reactions,
    TurnEnded,
    WakeWanted,
)
from studyhall.server.runtime.supervisor import Supervisor

log = logging.getLogger("studyhall.turns")



class TurnRunner:
    def __init__(
        self,
        *,
        board: TurnBoard,
        chat_store: ChatStore,
        chat_model: ChatModel,
        settings_store: SettingsStore,
        clock: Clock,
        ids: Ids,
        prompt: Callable[[str], str],
        supervisor: Supervisor,
        reactions: Reactions,
        tools: Mapping[AgentRole, Sequence[Tool]],
        wrap: Mapping[str, ToolWrap],
        no_key: Callable[[str], str | None],
        capabilities: Callable[[ModelRole], ModelCapabilities],
    ) -> None:
        self._board = board
        self._store = chat_store
        self._model = chat_model
        self._supervisor = supervisor
        self._settings = settings_store
        self._clock = clock
        self._ids = ids
        self._prompt = prompt
        self._reactions = reactions
        # What runs after each turn; its end is published as ``TurnEnded`` for other systems.
        self.after_turn = AfterTurn(
            chat_store=chat_store, chat_model=chat_model, clock=clock, prompt=prompt,
            supervisor=supervisor, reactions=reactions,
        )
        # Tools other systems give an agent role (the workbench's job tools and the learner
        # tools for the teacher) and wrap by name (the learner model's gate around ``quiz``).
        self._roster = AgentRoster(tools=tools, wrap=wrap)
        self._deps = AgentTurnDeps(
            model=chat_model, ids=ids, clock=clock, prompt=prompt, board=board,
            roster=self._roster, no_key=no_key, capabilities=capabilities,
        )

    # --- public API -------------------------------------------------------------------------

    def create_chat(self, topic: str | None = None, *, node_id: str | None = None,
                    opening: Callable[[str], Sequence[Message]] | None = None) -> ChatRecord:
        """A new session (the prober greets on the learner's first message): empty, or with
        ``opening(chat_id)`` — a studied note's material — saved with it in one write."""
        if topic is not None:
            if not isinstance(topic, str):
                raise InvalidInput('"topic" must be a string.')
            topic = " ".join(topic.split()) or None
            if topic is not None and len(topic) > MAX_TOPIC_CHARS:
                raise InvalidInput(
                    f"The topic is {len(topic)} characters; keep it under {MAX_TOPIC_CHARS}."
                )
        now = self._clock.now()
        chat_id = self._ids.new("chat")
        record = ChatRecord(id=chat_id, topic=topic, node_id=node_id, created_at=now,
                            updated_at=now, messages=tuple(opening(chat_id) if opening else ()))
        self._store.create(record)
        return record

    def running(self, chat_id: str) -> bool:
        return self._board.running(chat_id)

    def queue_steer(self, chat_id: str, message: Message) -> None:
        """Queue a steer for the chat's next turn (claimed once; a delivered id is dropped)."""
        self._board.queue_steer(chat_id, message)

    async def send_message(self, chat_id: str, text: str, message_id: str | None = None,
                           as_written: bool = False) -> RunningTurn:
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

    async def answer(self, chat_id: str, tool_call_id: str, answer: Any) -> RunningTurn:
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
            self._studied(record, done)
            if approves_plan(done):
                self._reactions.publish(PlanApproved(chat_id))
        except BaseException:
            self._end(chat_id)
            raise
        if pending_client_calls(updated):  # the other questions of that step still wait
            turn.emit(Finish.of("awaiting-answer", record.messages))
            self._finish(turn, TurnEnded(chat_id, "awaiting-answer", None, ()))
            return turn
        return self._start(turn, record)

    async def resume(self, chat_id: str) -> RunningTurn:
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

    async def wake(self, wanted: WakeWanted) -> None:
        """Steers wait and nothing else will claim them: a turn on the record as it stands.
        A turn begun meanwhile claims them itself; a chat with nothing owed stays as it is."""
        try:
            await self.resume(wanted.chat_id)  # claims every queued steer, persists, runs
            log.info("[chat %s] wake turn started", wanted.chat_id)
        except BusyError:
            pass  # a turn began meanwhile: its claim points deliver the steers
        except StudyhallError as e:
            log.warning("[chat %s] wake turn not started: %s", wanted.chat_id, e)

    async def stop(self, chat_id: str) -> bool:
        """Stop the running turn (what was streamed so far is kept). False if none runs."""
        turn = self._board.get(chat_id)
        if turn is None or turn.task is None:
            return False
        turn.task.cancel()
        await asyncio.gather(turn.task, return_exceptions=True)
        return True

    # --- the turn ---------------------------------------------------------------------------

    def _begin(self, chat_id: str) -> RunningTurn:
        return self._board.begin(chat_id)

    def _end(self, chat_id: str) -> None:
        self._board.end(chat_id)

    def _redirect(self, turn: RunningTurn, record: ChatRecord, reply: str) -> RunningTurn:
        """The router's canned reply, persisted as the agent's message and streamed; no
        model is called, so no after-turn seam (title, extraction) runs either."""
        try:
            message = Message(
                id=self._ids.new("msg"), role="assistant",
                agent=self._roster.agent_for(record.messages).role,
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

    def _start(self, turn: RunningTurn, record: ChatRecord) -> RunningTurn:
        # A supervised task: shutdown cancels it, and it saves what was shown and marks the
        # calls it did not run as interrupted.
        turn.task = self._supervisor.spawn(f"turn {turn.chat_id}", self._run(turn, record))
        return turn

    async def _run(self, turn: RunningTurn, record: ChatRecord) -> None:
        outcome = TurnEnded(turn.chat_id, "error", None, ())  # if the turn dies unannounced
        try:
            async for item in run_agent_turn(
                    record, self._deps, max_steps=self._settings.load().max_steps_per_turn):
                if isinstance(item, TurnEnded):
                    outcome = item
                else:
                    turn.emit(item)
        finally:
            self._finish(turn, outcome)

    def _finish(self, turn: RunningTurn, outcome: TurnEnded) -> None:
        """After-turn seams (never touching the response), then end the turn — always."""
        try:
            self.after_turn.run(outcome)
        finally:
            turn.close()
            self._end(turn.chat_id)

    def _studied(self, record: ChatRecord, done: ToolCallPart) -> None:
        """A quiz answered in a session that studies a note: its verdicts are evidence there."""
        if record.node_id is None or done.name != "quiz":
            return
        output = QuizOutput.model_validate(done.output)
        self._reactions.publish(QuizGraded(
            record.id, record.node_id, done.tool_call_id,
            tuple(r.verdict for r in output.results), self._clock.now()))

    # --- record helpers ---------------------------------------------------------------------

    def _record(self, chat_id: str) -> ChatRecord:
        record = self._store.get(chat_id)
        if record is None:
            raise NotFound(f"No session {chat_id!r}; it may have been deleted.")
        return record

    def _save(self, chat_id: str, messages: Sequence[Message]) -> ChatRecord:
        return self._board.save(chat_id, messages)

    def _claim(self, chat_id: str, messages: Sequence[Message]) -> list[Message]:
        return self._board.claim(chat_id, messages)


def _find_call(record: ChatRecord, tool_call_id: str) -> tuple[Message, ToolCallPart]:
    for message in record.messages:
        for part in message.parts:
            if isinstance(part, ToolCallPart) and part.tool_call_id == tool_call_id:
                return message, part
    raise NotFound(f"No question {tool_call_id!r} in this session.")
