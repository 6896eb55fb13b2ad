"""Cut-off turns: streamed text is checkpointed marked incomplete, a broken stream keeps what
arrived, the failure stays on the record's last message, and Try again resumes from the last
complete point (the cut text dropped, the message's id kept) — owed, never "nothing to do"."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from studyhall.core.agents.loop import CHECKPOINT_CHARS, AgentRun, Saved
from studyhall.core.agents.prober import PROBER
from studyhall.core.classroom.cut_turns import (
    INCOMPLETE,
    TURN_FAILED,
    failure,
    is_cut,
    mark_cut,
    resume_point,
    with_failure,
)
from studyhall.core.classroom.turn_state import owes_reply
from studyhall.core.contracts.chat import DataPart, Message, TextPart, ToolCallPart
from studyhall.core.contracts.models import ModelRequest, StreamedText
from studyhall.core.errors import ModelStreamCut

from tests.support.chat_model import FunctionChatModel
from tests.support.transcript import AT, assistant, user

CUT = DataPart(name=INCOMPLETE, data={})
WHY = {"kind": "stream_cut", "role": "prober", "message": "It broke off.", "action": "retry"}


def _message(*parts: Any) -> Message:
    return Message(id="m1", role="assistant", agent="prober", parts=parts, created_at=AT)


def test_a_cut_message_is_owed_a_reply_and_resumes_without_its_cut_text() -> None:
    done = ToolCallPart(tool_call_id="c1", name="probe_done", input={}, state="output-available")
    cut = with_failure(mark_cut(_message(TextPart(text="Intro."), done, TextPart(text="Half a"))),
                       WHY)
    assert is_cut(cut) and failure([user("u1", "hi"), cut]) == WHY
    assert owes_reply([user("u1", "hi"), cut])  # Try again is never "nothing to continue"
    restored = resume_point(cut)
    assert restored.id == "m1" and restored.parts == (TextPart(text="Intro."), done)
    assert not is_cut(restored) and failure([restored]) is None


def test_a_complete_answer_is_not_owed_and_an_old_failure_is_not_shown() -> None:
    answered = _message(TextPart(text="All done."))
    assert not owes_reply([user("u1", "hi"), answered])
    failed_user = with_failure(user("u1", "hi"), WHY)
    assert failure([failed_user]) == WHY
    assert failure([failed_user, assistant("a1", TextPart(text="Later answer."))]) is None
    assert with_failure(with_failure(answered, WHY), {**WHY, "message": "again"}).parts == (
        TextPart(text="All done."), DataPart(name=TURN_FAILED, data={**WHY, "message": "again"}))


async def test_streamed_text_is_checkpointed_marked_incomplete_then_saved_whole() -> None:
    pieces = ["x" * 100] * 7  # 700 characters: two checkpoints on the way

    async def answer(request: ModelRequest) -> AsyncIterator[Any]:
        for piece in pieces:
            yield StreamedText(text=piece)

    run = AgentRun(model=FunctionChatModel(answer), agent=PROBER, system="S", chat_id="c",
                   history=[user("u1", "hi")], message=_message(), max_steps=1,
                   new_id=lambda p: f"{p}_1")
    saved = [e.message for e in [e async for e in run.events()] if isinstance(e, Saved)]
    checkpoints = [m for m in saved if CUT in m.parts]
    assert len(checkpoints) == 700 // CHECKPOINT_CHARS
    assert checkpoints[0].parts == (TextPart(text="x" * CHECKPOINT_CHARS), CUT)
    assert saved[-1].parts == (TextPart(text="x" * 700),)  # the whole answer, unmarked


async def test_a_broken_stream_keeps_the_text_that_arrived_marked_incomplete() -> None:
    async def answer(request: ModelRequest) -> AsyncIterator[Any]:
        yield StreamedText(text="Half an ans")
        raise ModelStreamCut("broke off", role="prober")

    run = AgentRun(model=FunctionChatModel(answer), agent=PROBER, system="S", chat_id="c",
                   history=[user("u1", "hi")], message=_message(), max_steps=1,
                   new_id=lambda p: f"{p}_1")
    try:
        async for _ in run.events():
            pass
    except ModelStreamCut:
        pass
    assert run.interrupted(cut=True).parts == (TextPart(text="Half an ans"), CUT)
