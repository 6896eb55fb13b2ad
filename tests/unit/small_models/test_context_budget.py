"""Issue 31 item 5: a history that overflows an 8k context is fitted — the oldest messages
left out (told in a note), never the plan, the open question or the learner's newest message —
and a small context gets the compact prompt."""

from __future__ import annotations

import json

from studyhall.adapters.llm.scripted import ScriptedChatModel
from studyhall.core.agents.context_budget import estimate_tokens, fit_history
from studyhall.core.agents.loop import AgentRun, Stopped
from studyhall.core.agents.roster import PROBER, TEACHER
from studyhall.core.contracts.chat import Message
from studyhall.core.contracts.model_capabilities import ModelCapabilities
from studyhall.server.runtime.classroom.agent_turn import prompt_for
from studyhall.server.runtime.classroom.prompts import load_prompt

from tests.support.transcript import AT, assistant, call, text, user

PLAN = {"title": "Graphs", "mermaid": "graph TD\n  A[Vertices] --> B[Paths]"}
SMALL = ModelCapabilities(tools=True, json_schema=True, context_tokens=8192)
LONG = "Breadth-first search explores the graph one ring of neighbours at a time. " * 14


def _history() -> list[Message]:
    messages: list[Message] = [user("u0", "I want to learn graph search for my exam"),
                               assistant("a0", call("plan1", "plan_init", output={"approved": True},
                                                    **PLAN), agent="teacher")]
    for n in range(1, 40):
        messages += [user(f"u{n}", f"Question {n}: {LONG}"),
                     assistant(f"a{n}", text(LONG), agent="teacher")]
    messages += [assistant("aq", call("q9", "ask_user_question", state="input-available",
                                      question="Which part is hardest?"), agent="teacher"),
                 user("ulast", "The queue part, honestly.")]
    return messages


def _tokens(request_messages: tuple[dict[str, object], ...]) -> int:
    return sum(estimate_tokens(json.dumps(m)) + 6 for m in request_messages)


async def test_a_history_overflowing_an_8k_context_is_fitted_keeping_plan_and_question() -> None:
    history = _history()
    assert sum(estimate_tokens(LONG) for _ in range(80)) > 8192  # it would overflow
    model = ScriptedChatModel({"teacher": [{"text": "Let's look at the queue."}]})
    run = AgentRun(model=model, agent=TEACHER, system=load_prompt("teacher.compact.md"),
                   chat_id="c", history=history,
                   message=Message(id="m1", role="assistant", agent="teacher", created_at=AT),
                   max_steps=2, new_id=lambda p: p + "_1", capabilities=SMALL)
    events = [e async for e in run.events()]
    assert events[-1] == Stopped("stop")
    (request,) = model.requests
    tool_tokens = sum(estimate_tokens(str(t.parameters)) + 40 for t in request.tools)
    assert _tokens(request.messages) + tool_tokens <= 8192 - 2048
    sent = json.dumps(request.messages)
    assert "plan_init" in sent and "Which part is hardest?" in sent
    assert request.messages[-1] == {"role": "user", "content": "The queue part, honestly."}
    assert "older messages are left out" in request.messages[0]["content"]
    assert "I want to learn graph search" in request.messages[0]["content"]  # told, in their words
    shown = [m["content"] for m in request.messages[1:]]
    assert not any(str(c).startswith("Question 1:") for c in shown)  # the oldest went first
    assert any(str(c).startswith("Question 39:") for c in shown)


def test_a_history_that_fits_is_sent_whole() -> None:
    history = _history()[:5]
    assert fit_history(history, budget=100_000).messages == tuple(history)
    assert fit_history(history, budget=None).dropped == ()


def test_a_small_context_gets_the_compact_prompt() -> None:
    assert prompt_for(PROBER, SMALL) == "prober.compact.md"
    assert prompt_for(TEACHER, ModelCapabilities(context_tokens=128_000)) == "teacher.md"
    assert len(load_prompt("prober.compact.md")) < len(load_prompt("prober.md")) / 2
    assert len(load_prompt("teacher.compact.md")) < len(load_prompt("teacher.md")) / 2
