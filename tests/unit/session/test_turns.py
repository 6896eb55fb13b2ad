"""The turn pipeline with in-memory ports: steers, hand-off recovery, seams, failures, limits."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from studyhall.adapters.fakes import (
    FixedClock,
    InMemoryChatStore,
    InMemorySettingsStore,
    SequentialIds,
)
from studyhall.core.contracts.chat import ChatRecord, Message, SteerPart, ToolCallPart
from studyhall.core.contracts.model_capabilities import UNKNOWN, ModelCapabilities
from studyhall.core.contracts.models import ModelEvent, ModelRequest
from studyhall.core.contracts.settings import Settings
from studyhall.core.contracts.steers import job_steer_id, steer_message
from studyhall.core.errors import BusyError, Conflict, InvalidInput, NotFound, StoreError
from studyhall.server.runtime.classroom.prompts import load_prompt
from studyhall.server.runtime.classroom.turn_board import TurnBoard
from studyhall.server.runtime.classroom.turns import TurnRunner
from studyhall.server.runtime.reactions import Reactions, TurnEnded
from studyhall.server.runtime.supervisor import Supervisor

from tests.support.chat_model import FunctionChatModel
from tests.support.chat_script import Replies, say, scripted, tool
from tests.support.transcript import AT, PROBE_ARGS, assistant, call, text, user

QUIZ = {"questions": [{"prompt": "2+2?", "choices": ["3", "4"], "correct": [1]}]}
PLAN = {"title": "Sums", "mermaid": "graph TD\n  A[Adding] --> B[Carrying]"}


class Harness:
    def __init__(self, model: FunctionChatModel, settings: Settings | None = None,
                 store: Any = None, capabilities: ModelCapabilities = UNKNOWN) -> None:
        self.store = store or InMemoryChatStore()
        self.model = model
        self.supervisor = Supervisor()
        self.reactions = Reactions(self.supervisor)
        clock = FixedClock()
        self.runner = TurnRunner(
            board=TurnBoard(chat_store=self.store, clock=clock),
            chat_store=self.store, chat_model=model,
            settings_store=InMemorySettingsStore(settings), clock=clock,
            ids=SequentialIds(), prompt=load_prompt, supervisor=self.supervisor,
            reactions=self.reactions, tools={}, wrap={}, no_key=lambda role: None,
            capabilities=lambda role: capabilities,
        )

    def chat(self, *messages: Message) -> str:
        self.store.create(ChatRecord(id="chat_1", topic="sums", created_at=AT, updated_at=AT,
                                     messages=messages))
        return "chat_1"

    async def events(self, turn) -> list[tuple[str, dict[str, Any]]]:
        out = [(e.name, e.data) for e in [e async for e in turn.events()]]
        await self.supervisor.idle()
        return out

    def messages(self) -> tuple[Message, ...]:
        return self.store.get("chat_1").messages


def _labeler(*titles: str) -> list[Any]:
    return [say(t) for t in titles]


async def test_queued_steer_is_delivered_once_before_the_learner_message() -> None:
    h = Harness(scripted(prober=[say("Noted."), say("Sure.")], labeler=_labeler("Sums")))
    chat = h.chat()
    steer = steer_message(job_steer_id("job_1"), "job", "Research done: carrying.", AT)
    h.runner.queue_steer(chat, steer)
    h.runner.queue_steer(chat, steer)  # queued twice, delivered once
    events = await h.events(await h.runner.send_message(chat, "hi"))
    assert [n for n, _ in events][:2] == ["steer", "message-start"]
    assert events[0][1]["steer_id"] == "steer_job_1"
    ids = [m.id for m in h.messages()]
    assert ids[0] == "steer_job_1" and h.messages()[1].role == "user"
    first_request = h.model.of("prober")[0].messages
    assert "Research done" in first_request[1]["content"]
    await h.events(await h.runner.send_message(chat, "again"))
    assert [m.id for m in h.messages()].count("steer_job_1") == 1
    # a steer that is already in the transcript is dropped from the queue, not re-appended
    h.runner.queue_steer(chat, steer)
    with pytest.raises(Conflict):
        await h.runner.resume(chat)


async def test_handoff_lost_in_a_crash_is_claimed_on_the_next_turn() -> None:
    h = Harness(scripted(teacher=[say("Let's plan.")], labeler=[]))
    done = assistant("a1", text("Thanks."),
                     call("p1", "probe_done", output={"status": "filed"}, **PROBE_ARGS))
    chat = h.chat(user("u1", "hi"), done)  # crashed before the steer was written
    events = await h.events(await h.runner.send_message(chat, "hello?"))
    steer = next(m for m in h.messages() if m.id == "steer_probe_chat_1")
    assert isinstance(steer.parts[0], SteerPart)
    order = [m.id for m in h.messages()]
    assert order.index("steer_probe_chat_1") < len(order) - 2  # steer, learner, teacher
    assert h.messages()[-1].agent == "teacher"
    assert [d["agent"] for n, d in events if n == "message-start"] == ["teacher"]


async def test_two_questions_in_one_step_wait_for_both_answers() -> None:
    h = Harness(scripted(prober=[say(calls=[tool("quiz", QUIZ, "q1"),
                              tool("ask_user_question", {"question": "Goal?"}, "k1")]),
                   say("Thanks for both.")], labeler=[]))
    chat = h.chat()
    events = await h.events(await h.runner.send_message(chat, "hi"))
    assert events[-1][1]["pending"] == ["q1", "k1"]
    events = await h.events(await h.runner.answer(chat, "k1", {"text": "exams"}))
    assert [n for n, _ in events] == ["tool-result", "finish"]
    assert events[-1][1] == {"reason": "awaiting-answer", "phase": "probe", "pending": ["q1"]}
    assert len(h.model.of("prober")) == 1  # no model call while a question still waits
    events = await h.events(await h.runner.answer(chat, "q1", {"dont_know": True}))
    assert "Thanks for both." in "".join(d.get("text", "") for _, d in events)
    last_request = h.model.of("prober")[-1].messages
    assert [m["role"] for m in last_request[-3:]] == ["assistant", "tool", "tool"]


async def test_step_limit_comes_from_settings() -> None:
    bad = [say(calls=[tool("nope", {}, f"x{i}")]) for i in range(3)]
    h = Harness(scripted(prober=bad, labeler=[]),
                settings=Settings(max_steps_per_turn=2))
    chat = h.chat()
    events = await h.events(await h.runner.send_message(chat, "hi"))
    assert events[-1] == ("finish", {"reason": "step-limit", "phase": "probe", "pending": []})
    assert len(h.model.of("prober")) == 2
    # every call has its result, so the next turn's provider messages are valid
    assert all(p.state == "output-error" for p in h.messages()[-1].parts
               if isinstance(p, ToolCallPart))


async def test_a_store_failure_ends_the_turn_with_an_error_event() -> None:
    class FullDisk(InMemoryChatStore):
        saves = 0

        def save_messages(self, chat_id, messages, at):
            FullDisk.saves += 1
            if FullDisk.saves >= 2:
                raise StoreError("No space left on the disk holding chats/. Free some space.")
            return super().save_messages(chat_id, messages, at)

    h = Harness(scripted(prober=[say("Hello")], labeler=[]), store=FullDisk())
    chat = h.chat()
    events = await h.events(await h.runner.send_message(chat, "hi"))
    assert events[-1][0] == "error" and events[-1][1]["kind"] == "store"
    assert "No space left" in events[-1][1]["message"]
    assert not h.runner.running(chat)
    assert [m.role for m in h.messages()] == ["user"]  # the learner's message was saved first


async def test_an_unexpected_bug_is_contained(caplog: pytest.LogCaptureFixture) -> None:
    h = Harness(scripted(prober=[RuntimeError("adapter bug")], labeler=[]))
    chat = h.chat()
    with caplog.at_level(logging.ERROR, "studyhall.turns"):
        events = await h.events(await h.runner.send_message(chat, "hi"))
    assert events[-1][0] == "error" and events[-1][1]["kind"] == "internal"
    assert "adapter bug" not in events[-1][1]["message"]
    assert "[chat chat_1] turn failed" in caplog.text
    assert not h.runner.running(chat)


async def test_seams_are_contained_and_hooks_see_the_outcome(
    caplog: pytest.LogCaptureFixture,
) -> None:
    h = Harness(scripted(prober=[say("Hi")], labeler=[RuntimeError("down")]))
    seen: list[TurnEnded] = []

    async def record_outcome(outcome: TurnEnded) -> None:
        seen.append(outcome)

    def broken(outcome: TurnEnded) -> None:
        raise ValueError("extraction exploded")

    h.reactions.declare({TurnEnded: (record_outcome, broken)})
    chat = h.chat()
    with caplog.at_level(logging.WARNING, "studyhall.turns"):
        events = await h.events(await h.runner.send_message(chat, "hi"))
    assert events[-1][0] == "finish"
    assert seen and seen[0].chat_id == chat and seen[0].reason == "stop"
    assert seen[0].usage is not None and seen[0].usage.input_tokens == 5
    assert h.store.get(chat).title is None  # the labeler failed; nothing invented
    assert "[chat chat_1] title failed" in caplog.text
    assert "[chat chat_1] broken failed: ValueError: extraction exploded" in caplog.text


async def test_retried_send_with_the_same_id_is_not_appended_twice() -> None:
    h = Harness(scripted(prober=[RuntimeError("boom"), say("Hello")], labeler=[]))
    chat = h.chat()
    await h.events(await h.runner.send_message(chat, "hi", "client_1"))
    await h.events(await h.runner.send_message(chat, "hi", "client_1"))
    assert [(m.id, m.role) for m in h.messages()][:1] == [("client_1", "user")]
    assert [m.role for m in h.messages()] == ["user", "assistant"]
    with pytest.raises(Conflict):
        await h.runner.send_message(chat, "hi", "client_1")
    assert not h.runner.running(chat)


async def test_requests_are_checked_and_never_leave_the_chat_locked() -> None:
    h = Harness(scripted(prober=[], labeler=[]))
    with pytest.raises(NotFound):
        await h.runner.send_message("chat_nope", "hi")
    chat = h.chat()
    with pytest.raises(InvalidInput):
        await h.runner.send_message(chat, "   ")
    with pytest.raises(NotFound):
        await h.runner.answer(chat, "q_nope", {"dont_know": True})
    assert not h.runner.running(chat)
    with pytest.raises(InvalidInput):
        h.runner.create_chat("x" * 300)
    assert h.runner.create_chat("  linear   algebra ").topic == "linear algebra"


async def test_busy_and_shutdown_saves_what_was_shown() -> None:
    gate, replies = asyncio.Event(), Replies(prober=[say("Half")], labeler=[])

    async def held(request: ModelRequest) -> list[ModelEvent]:
        await gate.wait()  # the model never answers: the turn is busy until shutdown
        return replies(request)

    model = FunctionChatModel(held)
    h = Harness(model)
    chat = h.chat()
    turn = await h.runner.send_message(chat, "hi")
    await asyncio.sleep(0.01)
    with pytest.raises(BusyError):
        await h.runner.send_message(chat, "again")
    await h.supervisor.aclose()
    events = [(e.name, e.data) async for e in turn.events()]
    assert events[-1] == ("finish", {"reason": "stopped", "phase": "probe", "pending": []})
    assert not h.runner.running(chat)
    assert [m.role for m in h.messages()] == ["user"]


async def test_teacher_prompt_carries_the_plan_progress() -> None:
    approved = assistant("a2", call("pl", "plan_init", output={"approve": True}, **PLAN),
                         agent="teacher")
    done = assistant("a1", call("p1", "probe_done", output={}, **PROBE_ARGS))
    h = Harness(scripted(teacher=[say("On we go.")], labeler=[]))
    chat = h.chat(user("u1", "hi"), done,
                  steer_message("steer_probe_chat_1", "handoff", "over to you", AT), approved)
    await h.events(await h.runner.send_message(chat, "next?"))
    system = h.model.of("teacher")[0].messages[0]["content"]
    assert "You are the teacher" in system
    assert "- A (upcoming): Adding" in system and "Topic the learner opened" in system
