"""Issue 31 item 3: a model that cannot call tools still quizzes — its printed calls are read,
or its steps are asked as JSON — checked by the tool path's own checkers, bounded repairs,
cut replies never half-read, and a calm plain-text end when it cannot manage."""

from __future__ import annotations

import json
from typing import Any

from studyhall.adapters.llm.scripted import ScriptedChatModel
from studyhall.core.agents.action_step import CALM_LINE, calm_line
from studyhall.core.agents.loop import AgentRun, Stopped
from studyhall.core.agents.roster import PROBER, TEACHER
from studyhall.core.agents.turn_events import ToolCall, TurnTextDelta
from studyhall.core.contracts.chat import Message, TextPart, ToolCallPart
from studyhall.core.contracts.model_capabilities import UNKNOWN, ModelCapabilities

from tests.support.transcript import AT, user

QUIZ = {"questions": [{"prompt": "What does BFS visit first?", "choices": ["the nearest nodes",
                                                                         "the deepest node"],
                       "correct": [0], "explanation": "Breadth first: level by level."}]}
NO_TOOLS = ModelCapabilities(tools=False, json_schema=True, context_tokens=8192)
NO_TOOLS_NO_SCHEMA = ModelCapabilities(tools=False, json_schema=False, context_tokens=8192)


def _run(model: ScriptedChatModel, caps: ModelCapabilities = UNKNOWN,
         agent=PROBER, history: list[Message] | None = None) -> AgentRun:
    counter = iter(range(1000))
    return AgentRun(
        model=model, agent=agent, system="SYSTEM", chat_id="chat_1",
        history=history or [user("u1", "Quiz me on BFS, please.")],
        message=Message(id="m1", role="assistant", agent=agent.role, created_at=AT),
        max_steps=8, new_id=lambda p: f"{p}_{next(counter)}", capabilities=caps,
    )


async def _drain(run: AgentRun) -> list[Any]:
    return [e async for e in run.events()]


def _shown(events: list[Any]) -> str:
    return "".join(e.text for e in events if isinstance(e, TurnTextDelta))


def _quizzes(message: Message) -> list[ToolCallPart]:
    return [p for p in message.parts if isinstance(p, ToolCallPart) and p.name == "quiz"]


async def test_printed_tool_call_tags_become_a_quiz_the_learner_never_reads_as_text() -> None:
    printed = ("Sure! Let's check.\n<tool_call>\n"
               + json.dumps({"name": "quiz", "arguments": QUIZ}) + "\n</tool_call>")
    model = ScriptedChatModel({"prober": [{"text": printed}]})
    run = _run(model)
    events = await _drain(run)
    assert events[-1] == Stopped("awaiting-answer")
    (quiz,) = _quizzes(run.message)
    assert quiz.state == "input-available" and quiz.input == QUIZ
    assert any(isinstance(e, ToolCall) for e in events)
    shown = _shown(events)
    assert shown.strip() == "Sure! Let's check." and "tool_call" not in shown
    texts = [p.text.strip() for p in run.message.parts if isinstance(p, TextPart)]
    assert texts == ["Sure! Let's check."]


async def test_bare_and_fenced_printed_calls_are_read_too() -> None:
    for printed in ('{"name": "quiz", "arguments": ' + json.dumps(QUIZ) + "}",
                    "Here:\n```json\n" + json.dumps({"name": "quiz", "arguments": QUIZ}) + "\n```"):
        run = _run(ScriptedChatModel({"prober": [{"text": printed}]}))
        events = await _drain(run)
        assert len(_quizzes(run.message)) == 1, printed
        assert "arguments" not in _shown(events)


async def test_a_model_without_tools_is_asked_for_json_and_its_quiz_reaches_the_learner() -> None:
    model = ScriptedChatModel({"prober": [
        {"json": {"say": "Hi! A quick check first.", "action": {"name": "quiz", "arguments": QUIZ}}},
    ]})
    run = _run(model, NO_TOOLS)
    events = await _drain(run)
    assert events[-1] == Stopped("awaiting-answer")
    assert len(_quizzes(run.message)) == 1
    assert _shown(events) == "Hi! A quick check first."
    (request,) = model.requests
    assert request.tools == () and request.response_schema is not None
    actions = request.response_schema["properties"]["action"]["anyOf"]
    assert actions[0] == {"type": "null"}
    named = {a["properties"]["name"]["enum"][0]: a["properties"]["arguments"] for a in actions[1:]}
    assert set(named) == {"quiz", "ask_user_question", "probe_done"}
    assert named["quiz"]["properties"]["questions"]["maxItems"] == 10  # the tool's own schema
    assert "cannot call tools" in request.messages[0]["content"]


async def test_without_a_schema_the_printed_call_in_a_json_step_is_read() -> None:
    printed = "<tool_call>" + json.dumps({"name": "quiz", "arguments": QUIZ}) + "</tool_call>"
    model = ScriptedChatModel({"prober": [{"text": printed}]})
    run = _run(model, NO_TOOLS_NO_SCHEMA)
    await _drain(run)
    assert len(_quizzes(run.message)) == 1
    assert model.requests[0].response_schema is None


async def test_an_invalid_quiz_is_shown_back_with_the_checkers_error_then_accepted() -> None:
    bad = {"questions": [{"prompt": "2+2?", "choices": ["3", "4"], "correct": [7]}]}
    model = ScriptedChatModel({"prober": [
        {"json": {"say": "Check:", "action": {"name": "quiz", "arguments": bad}}},
        {"json": {"say": "Check:", "action": {"name": "quiz", "arguments": QUIZ}}},
    ]})
    run = _run(model, NO_TOOLS)
    events = await _drain(run)
    assert events[-1] == Stopped("awaiting-answer")
    (quiz,) = _quizzes(run.message)
    assert quiz.input == QUIZ  # the rejected one was never recorded
    repair = model.requests[1].messages[-1]["content"]
    assert "quiz was rejected" in repair and "correct" in repair


async def test_a_reply_cut_at_max_tokens_is_never_half_read() -> None:
    model = ScriptedChatModel({"prober": [
        {"text": '{"say": "Hello, let us check what you know about BFS and',
         "finish": "length"},
        {"json": {"say": "Hello.", "action": {"name": "quiz", "arguments": QUIZ}}},
    ]})
    run = _run(model, NO_TOOLS)
    events = await _drain(run)
    assert _shown(events) == "Hello."
    assert "cut off" in model.requests[1].messages[-1]["content"]
    assert len(_quizzes(run.message)) == 1


async def test_a_printed_call_cut_at_max_tokens_is_dropped_and_asked_again_as_json() -> None:
    model = ScriptedChatModel({"prober": [
        {"text": 'Ok. <tool_call>{"name": "quiz", "arguments": {"questions": [{"prompt": "Wh',
         "finish": "length"},
        {"json": {"say": "", "action": {"name": "quiz", "arguments": QUIZ}}},
    ]})
    run = _run(model)
    events = await _drain(run)
    assert "tool_call" not in _shown(events) and "prompt" not in _shown(events)
    assert len(_quizzes(run.message)) == 1
    assert model.requests[1].response_schema is not None and model.requests[1].tools == ()


async def test_after_the_repairs_the_turn_goes_on_as_plain_text_with_one_calm_line() -> None:
    model = ScriptedChatModel({"teacher": [
        {"text": "not json at all"}, {"text": '{"say": 3}'}, {"text": "[1, 2]"},
        {"text": "Let's start with what a graph is: dots joined by lines."},
    ]})
    run = _run(model, NO_TOOLS, agent=TEACHER)
    events = await _drain(run)
    assert events[-1] == Stopped("stop")
    shown = _shown(events)
    assert shown.startswith("Let's start with what a graph is")
    assert shown.count(CALM_LINE) == 1 and shown.endswith(CALM_LINE)
    assert len(model.requests) == 4 and model.requests[3].response_schema is None
    assert not [p for p in run.message.parts if isinstance(p, ToolCallPart)]


async def test_json_history_shows_past_calls_as_text_not_tool_messages() -> None:
    from tests.support.transcript import assistant, call
    history = [user("u1", "hi"), assistant("a1", call("q1", "quiz", output={"score": 1})),
               user("u2", "next")]
    model = ScriptedChatModel({"prober": [{"json": {"say": "Good.", "action": None}}]})
    run = _run(model, NO_TOOLS, history=history)
    events = await _drain(run)
    assert events[-1] == Stopped("stop") and _shown(events) == "Good."
    roles = [m["role"] for m in model.requests[0].messages]
    assert "tool" not in roles
    assert not any(m.get("tool_calls") for m in model.requests[0].messages)
    contents = [m["content"] for m in model.requests[0].messages]
    assert any(c.startswith('[result of quiz] {"score":1}') for c in contents)


async def test_the_calm_line_names_what_could_not_be_shown() -> None:
    bad = {"questions": [{"prompt": "2+2?", "choices": ["3", "4"], "correct": [7]}]}
    printed = "<tool_call>" + json.dumps({"name": "quiz", "arguments": bad}) + "</tool_call>"
    model = ScriptedChatModel({"prober": [{"text": printed}] * 4 + [{"text": "Tell me more."}]})
    run = _run(model)
    events = await _drain(run)
    shown = _shown(events)
    assert shown.endswith(calm_line("quiz")) and "set a quiz up on screen" in shown
    assert not _quizzes(run.message)  # a rejected quiz never reaches the learner


async def test_a_json_example_in_a_lesson_is_shown_not_taken_for_a_call() -> None:
    lesson = ('A JSON object looks like this:\n```json\n{"name": "Ada", "age": 36}\n```\n'
              "Keys are strings.")
    model = ScriptedChatModel({"teacher": [{"text": lesson}]})
    run = _run(model, agent=TEACHER)
    events = await _drain(run)
    assert events[-1] == Stopped("stop")
    assert _shown(events) == lesson and len(model.requests) == 1


async def test_a_small_models_prober_that_only_talks_is_asked_once_for_its_quiz_as_json() -> None:
    """Its template takes tools but the model calls none (SmolLM2 on llama.cpp): the prober's
    turn goes on with one JSON step, and the quiz reaches the learner in its first turn."""
    template_tools = ModelCapabilities(tools=True, json_schema=True, context_tokens=8192)
    model = ScriptedChatModel({"prober": [
        {"text": "Hello! Let's see what you know about graphs."},
        {"json": {"say": "A quick check.", "action": {"name": "quiz", "arguments": QUIZ}}},
    ]})
    run = _run(model, template_tools)
    events = await _drain(run)
    assert events[-1] == Stopped("awaiting-answer")
    assert len(_quizzes(run.message)) == 1
    first, second = model.requests
    assert first.tools and first.response_schema is None  # tools offered first, as the template says
    assert second.tools == () and second.response_schema is not None


async def test_a_prober_on_a_large_context_or_a_teacher_is_not_pressed_for_a_quiz() -> None:
    hosted = ModelCapabilities(tools=True, json_schema=True, context_tokens=128_000)
    model = ScriptedChatModel({"prober": [{"text": "Hello! What would you like to learn?"}]})
    run = _run(model, hosted)
    assert (await _drain(run))[-1] == Stopped("stop") and len(model.requests) == 1
