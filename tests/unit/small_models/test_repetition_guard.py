"""Issue 31 item 5: a looping answer ends early with what was useful — through the agent loop
with the scripted model, and under the structured roles (a loop is a cut answer)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from studyhall.adapters.llm.scripted import ScriptedChatModel
from studyhall.core.agents.extractor import ModelExtractor
from studyhall.core.agents.loop import AgentRun, Stopped
from studyhall.core.agents.roster import TEACHER
from studyhall.core.agents.turn_events import TurnTextDelta
from studyhall.core.contracts.chat import Message
from studyhall.core.contracts.models import FinishEvent, ModelRequest, StreamedText
from studyhall.core.errors import ModelOutputInvalid
from studyhall.core.guardrails.repetition import RepeatWatch, RepetitionGuard

from tests.support.small_model import one_view_batch
from tests.support.transcript import AT, user

LINE = "BFS visits the nodes level by level, nearest first."


async def _stream(model: Any, role: str = "teacher") -> list[Any]:
    request = ModelRequest(role=role, messages=({"role": "user", "content": "hi"},))  # type: ignore[arg-type]
    return [e async for e in model.stream(request)]


async def test_a_line_looped_100_times_ends_early_keeping_it_once() -> None:
    looping = "Here is the idea.\n" + (LINE + "\n") * 100
    model = RepetitionGuard(ScriptedChatModel({"teacher": [{"text": looping}]}))
    events = await _stream(model)
    text = "".join(e.text for e in events if isinstance(e, StreamedText))
    assert text == "Here is the idea.\n" + LINE + "\n"
    assert events[-1] == FinishEvent("repetition")


async def test_a_teacher_turn_that_loops_ends_cleanly_with_its_useful_text() -> None:
    looping = "Here is the idea.\n" + (LINE + "\n") * 100
    model = RepetitionGuard(ScriptedChatModel({"teacher": [{"text": looping}]}))
    run = AgentRun(model=model, agent=TEACHER, system="S", chat_id="c", history=[user("u1", "go")],
                   message=Message(id="m1", role="assistant", agent="teacher", created_at=AT),
                   max_steps=4, new_id=lambda p: p + "_1")
    events = [e async for e in run.events()]
    assert events[-1] == Stopped("stop")
    shown = "".join(e.text for e in events if isinstance(e, TurnTextDelta))
    assert shown.count(LINE) == 1


async def test_repeats_that_stop_are_shown_whole() -> None:
    text = "Steps:\n" + (LINE + "\n") * 3 + "Then we are done here.\n"
    model = RepetitionGuard(ScriptedChatModel({"teacher": [{"text": text}]}))
    events = await _stream(model)
    assert "".join(e.text for e in events if isinstance(e, StreamedText)) == text
    assert events[-1] == FinishEvent("stop")


async def test_a_phrase_looping_inside_a_json_string_fails_the_batch_cleanly() -> None:
    runaway = '{"propositions": [{"key": "k1", "text": "' + "and then it visits the next ring " * 60
    model = RepetitionGuard(ScriptedChatModel({"extractor": [{"text": runaway}] * 2}))
    with pytest.raises(ModelOutputInvalid) as info:
        await ModelExtractor(model, "extract").extract(one_view_batch())
    assert "cut off" in str(info.value)


@pytest.mark.parametrize("unit", ["a\n", LINE[:20], "x" * 9 + "\n", "- " * 10, "abcdefghij"])
def test_the_watch_is_linear_on_hostile_text(unit: str) -> None:
    times = []
    for size in (20_000, 80_000):
        watch = RepeatWatch()
        text = unit * (size // len(unit))
        start = time.perf_counter()
        for k in range(0, len(text), 16):
            watch.feed(text[k:k + 16])
        times.append(time.perf_counter() - start)
    assert times[1] < max(0.5, times[0] * 10), times
