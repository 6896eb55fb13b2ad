"""The agent loop over a fake ChatModel: tools, client stops, argument errors, step limit."""

from __future__ import annotations

import json
from typing import Any

import pytest
from studyhall.core.agents.loop import AgentRun, Saved, Stopped
from studyhall.core.agents.prober import PROBER
from studyhall.core.agents.teacher import TEACHER
from studyhall.core.agents.turn_events import ToolCall, ToolResult, TurnTextDelta, UsageReport
from studyhall.core.contracts.chat import DataPart, Message, TextPart, ToolCallPart
from studyhall.core.errors import ModelProviderDown

from tests.support.chat_model import FunctionChatModel
from tests.support.chat_script import say, scripted, tool
from tests.support.transcript import AT, PROBE_ARGS, assistant, call, user

QUIZ = {"questions": [{"prompt": "2+2?", "choices": ["3", "4"], "correct": [1]}]}
GOOD_PLAN = {"title": "Graphs", "mermaid": "graph TD\n  A[Vertices] --> B[Paths]\n  B --> C[Trees]"}
BROKEN_PLAN = {"title": "Graphs", "mermaid": "graph TD\n  A[Vertices] -->\n  B --> C"}


def _run(model: FunctionChatModel, agent=PROBER, history: list[Message] | None = None,
         max_steps: int = 8) -> AgentRun:
    counter = iter(range(1000))
    return AgentRun(
        model=model, agent=agent, system="SYSTEM", chat_id="chat_1",
        history=history or [user("u1", "hi")],
        message=Message(id="m1", role="assistant", agent=agent.role, created_at=AT),
        max_steps=max_steps, new_id=lambda p: f"{p}_{next(counter)}",
    )


async def _drain(run: AgentRun) -> list[Any]:
    return [e async for e in run.events()]


def _tool_parts(message: Message) -> list[ToolCallPart]:
    return [p for p in message.parts if isinstance(p, ToolCallPart)]


async def test_text_reply_streams_saves_and_stops() -> None:
    model = scripted(say("Hel", "lo!"))
    run = _run(model)
    events = await _drain(run)
    assert [e.text for e in events if isinstance(e, TurnTextDelta)] == ["Hel", "lo!"]
    assert isinstance(events[-1], Stopped) and events[-1].reason == "stop"
    saved = [e for e in events if isinstance(e, Saved)]
    assert saved[-1].message.parts == (TextPart(text="Hello!"),)
    assert saved[-1].message.usage is not None and saved[-1].message.usage.input_tokens == 5
    assert any(isinstance(e, UsageReport) for e in events)
    req = model.requests[0]
    assert req.role == "prober"
    assert req.messages[0] == {"role": "system", "content": "SYSTEM"}
    assert req.messages[-1] == {"role": "user", "content": "hi"}
    assert {t.name for t in req.tools} == {"quiz", "ask_user_question", "probe_done"}


async def test_valid_quiz_waits_for_the_learner() -> None:
    model = scripted(say("Quick check:", calls=[tool("quiz", QUIZ, "q1")]))
    run = _run(model)
    events = await _drain(run)
    assert events[-1] == Stopped("awaiting-answer")
    (part,) = _tool_parts(run.message)
    assert part.state == "input-available" and part.tool_call_id == "q1"
    # the part is saved before its event goes out
    i = next(i for i, e in enumerate(events) if isinstance(e, ToolCall))
    assert isinstance(events[i - 1], Saved) and part in events[i - 1].message.parts
    assert len(model.requests) == 1


async def test_malformed_quiz_goes_back_to_the_model_which_corrects_it() -> None:
    bad = {"questions": [{"prompt": "2+2?", "choices": ["3", "4"], "correct": [7]}]}
    model = scripted(say(calls=[tool("quiz", bad, "q1")]), say(calls=[tool("quiz", QUIZ, "q2")]))
    run = _run(model)
    events = await _drain(run)
    results = [e.part for e in events if isinstance(e, ToolResult)]
    assert results[0].state == "output-error" and "quiz was rejected" in results[0].error
    second = model.requests[1].messages
    assert second[-1]["role"] == "tool" and second[-1]["tool_call_id"] == "q1"
    assert "rejected" in json.loads(second[-1]["content"])["error"]
    assert events[-1] == Stopped("awaiting-answer")
    assert [p.state for p in _tool_parts(run.message)] == ["output-error", "input-available"]


async def test_unparseable_arguments_and_unknown_tools_are_reported() -> None:
    model = scripted(
        say(calls=[tool("quiz", None, "q1", raw='{"questions": [oops')]),
        say(calls=[tool("launch_rocket", {}, "x1")]),
        say(calls=[tool("probe_done", [1, 2], "x2")]),  # type: ignore[arg-type]
        say("Sorry, let me just ask."),
    )
    run = _run(model)
    events = await _drain(run)
    errors = [p.error for p in _tool_parts(run.message)]
    assert "not valid JSON" in errors[0] and "oops" in errors[0]
    assert "no tool named 'launch_rocket'" in errors[1] and "quiz" in errors[1]
    assert "must be a JSON object" in errors[2]
    assert events[-1] == Stopped("stop")


async def test_probe_done_files_the_assessment_and_hands_off() -> None:
    model = scripted(say("Thanks!", calls=[tool("probe_done", PROBE_ARGS, "p1")]))
    run = _run(model)
    events = await _drain(run)
    assert events[-1] == Stopped("handoff")
    (part,) = _tool_parts(run.message)
    assert part.state == "output-available" and part.output["status"] == "filed"
    data = [p for p in run.message.parts if isinstance(p, DataPart)]
    assert data and data[0].name == "assessment" and data[0].data["goal"] == "pass the exam"
    assert len(model.requests) == 1  # the prober says nothing after probe_done


async def test_probe_done_missing_fields_is_an_argument_error() -> None:
    model = scripted(say(calls=[tool("probe_done", {"floor": "x"}, "p1")]), say("ok"))
    run = _run(model)
    events = await _drain(run)
    (part,) = _tool_parts(run.message)
    assert part.state == "output-error" and "ceiling must be a non-empty string" in part.error
    assert events[-1] == Stopped("stop")


async def test_step_limit_stops_a_model_that_never_stops() -> None:
    model = scripted(*[say(calls=[tool("nope", {}, f"x{i}")]) for i in range(3)])
    run = _run(model, max_steps=3)
    events = await _drain(run)
    assert events[-1] == Stopped("step-limit")
    assert run.steps == 3 and len(model.requests) == 3


async def test_duplicate_call_ids_get_fresh_ones() -> None:
    history = [user("u1", "hi"), assistant("a0", call("q1", "quiz", output={})), user("u2", "x")]
    model = scripted(say(calls=[tool("quiz", QUIZ, "q1")]))
    run = _run(model, history=history)
    await _drain(run)
    (part,) = _tool_parts(run.message)
    assert part.tool_call_id != "q1" and part.tool_call_id.startswith("call_")


async def test_model_failure_keeps_what_was_shown() -> None:
    run = _run(scripted(ModelProviderDown("down", role="prober")))
    with pytest.raises(ModelProviderDown):
        await _drain(run)
    assert run.interrupted().parts == ()

    async def half_then_drop(request):  # a text delta, then the provider drops
        yield say("Half a thou")[0]
        raise ModelProviderDown("down", role="prober")

    run = _run(FunctionChatModel(half_then_drop))
    with pytest.raises(ModelProviderDown):
        await _drain(run)
    assert run.interrupted().parts == (TextPart(text="Half a thou"),)


async def test_interrupted_marks_unrun_server_calls_but_keeps_questions() -> None:
    run = _run(scripted())
    run.message = assistant(
        "m1", call("q1", "quiz", state="input-available"), call("p1", "probe_done",
                                                                 state="input-available"))
    states = {p.tool_call_id: p.state for p in _tool_parts(run.interrupted())}
    assert states == {"q1": "input-available", "p1": "interrupted"}


async def test_teacher_broken_plan_is_corrected_then_waits_for_approval() -> None:
    model = scripted(
        say("Here is a plan.", calls=[tool("plan_init", BROKEN_PLAN, "pl1")]),
        say(calls=[tool("plan_init", GOOD_PLAN, "pl2")]),
    )
    run = _run(model, agent=TEACHER)
    events = await _drain(run)
    first, second = _tool_parts(run.message)
    assert first.state == "output-error" and "line 2" in first.error
    assert second.state == "input-available"
    assert events[-1] == Stopped("awaiting-answer")
    assert {t.name for t in model.requests[0].tools} == {"plan_init", "quiz", "ask_user_question"}


async def test_teacher_plan_without_nodes_goes_back_to_the_model() -> None:
    model = scripted(
        say(calls=[tool("plan_init", {"title": "Graphs", "mermaid": "graph TD"}, "pl1")]),
        say(calls=[tool("plan_init", GOOD_PLAN, "pl2")]),
    )
    run = _run(model, agent=TEACHER)
    await _drain(run)
    first, second = _tool_parts(run.message)
    assert first.state == "output-error" and "no nodes" in first.error
    assert second.state == "input-available"


async def test_teacher_quiz_must_be_tagged_with_a_node_of_the_approved_plan() -> None:
    approved = assistant("a1", call("pl1", "plan_init", output={"approve": True}, **GOOD_PLAN),
                         agent="teacher")
    history = [user("u1", "hi"), approved]
    model = scripted(
        say(calls=[tool("quiz", QUIZ, "q1")]),
        say(calls=[tool("quiz", {**QUIZ, "plan_node": "Z"}, "q2")]),
        say(calls=[tool("quiz", {**QUIZ, "plan_node": "B"}, "q3")]),
    )
    run = _run(model, agent=TEACHER, history=history)
    await _drain(run)
    a, b, c = _tool_parts(run.message)
    assert "plan_node is missing" in a.error
    assert "'Z' is not in the approved plan" in b.error
    assert c.state == "input-available"


async def test_the_loop_yields_the_wire_events_themselves() -> None:
    # One event type from the loop to the SSE encoder: name and payload are already the wire's.
    run = _run(scripted(say("Hel", "lo!", calls=[tool("quiz", QUIZ, "q1")])))
    events = [e for e in await _drain(run) if not isinstance(e, (Saved, Stopped))]
    assert [e.name for e in events] == ["text-delta", "text-delta", "tool-call", "usage"]
    assert events[0].data == {"message_id": "m1", "text": "Hel"}
    call_data = events[2].data
    assert call_data["message_id"] == "m1" and call_data["tool_call_id"] == "q1"
    assert "correct" not in str(call_data["presented"])  # the learner's view: no answer key
    usage = events[3].data
    assert usage["message_id"] == "m1" and usage["role"] == "prober"
    assert set(usage) == {"message_id", "role", "model", "input_tokens", "output_tokens",
                          "cost_usd"}
