"""Issue 31: a whole session over HTTP against a scripted *small* model — one that never calls
a tool but prints its calls as text, loops a line 100 times, is cut at max_tokens mid-call, and
whose extractor invents message ids — through the production litellm adapter (offline, from
``STUDYHALL_SCRIPT``). Mechanics, not content: every turn ends with text or a question, a quiz
reaches the learner in the prober's first turn, nothing invalid is written."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.embedder import HashEmbedder
from tests.support.runs import finished
from tests.support.session_api import PORT, Sse, scripted_app, write_script
from tests.support.small_model import printed_prober

PLAN = {"title": "BFS", "mermaid": "graph TD\n  A[Queues] --> B[BFS order]"}
LOOP = "BFS visits the nearest nodes first, then the next ring."
LEARNER = "I think BFS uses a queue so the nearest nodes come out first."
SCRIPT: dict[str, Any] = {
    "prober": printed_prober(),  # it cannot call tools: it prints the calls
    "teacher": [
        # It loops one line 100 times.
        {"text": "Let's begin.\n" + (LOOP + "\n") * 100},
        # Cut at max_tokens in the middle of a printed plan: never half-read, asked as JSON.
        {"text": 'Here is a plan. <tool_call>{"name": "plan_init", "arguments": {"title": "BFS", '
                 '"mermaid": "graph TD\\n  A[Queu', "finish": "length"},
        {"json": {"say": "Here is our plan.", "action": {"name": "plan_init", "arguments": PLAN}}},
    ],
    "labeler": [{"text": "BFS"}] * 3,
    # The extractor invents the id "m_7" (the batch lists m1, m2…); its quote is unique.
    "extractor": [{"json": {"propositions": [
        {"key": "p1", "text": "BFS keeps its frontier in a queue.",
         "evidence": [{"message_id": "m_7", "quote": "BFS uses a queue"}]},
        {"key": "p2", "text": "Made up.",
         "evidence": [{"message_id": "m_9", "quote": "words nobody wrote"}]}], "edges": []}}],
    "auditor": [{"json": {"verdicts": [{"key": "p1", "keep": True, "reason": "quoted"},
                                       {"key": "p2", "keep": True, "reason": "quoted"}]}}],
}


def _ended_cleanly(turn: Sse) -> None:
    assert turn.status == 200 and turn.last[0] == "finish", turn.events[-3:]
    text = turn.text()
    assert "tool_call" not in text and '"arguments"' not in text and "```json" not in text
    assert text.strip() or turn.of("tool-call"), "a turn ends with text or a question"


async def test_a_small_model_session_ends_every_turn_cleanly(tmp_path: Path) -> None:
    path = write_script(tmp_path / "script.json", SCRIPT)
    services = replace(build_services(load_config(port=PORT, script_path=path)),
                       embedder=HashEmbedder())
    async with scripted_app(path, services=services) as (api, runtime):
        chat_id = await api.new_chat("BFS")
        turns = []

        # 1. the prober's first turn: the printed quiz reaches the learner as a quiz
        turn = await api.say(chat_id, "Quiz me on BFS, please.")
        turns.append(turn)
        (quiz,) = turn.of("tool-call")
        assert quiz["name"] == "quiz" and quiz["state"] == "input-available"
        assert turn.text().strip() == "Hi! A quick check first."
        chat = await api.chat(chat_id)
        question = chat["pending"][0]["presented"]["questions"][0]

        # 2. the answer; the printed probe_done hands over; the teacher loops and is cut short
        turn = await api.answer(chat_id, quiz["tool_call_id"],
                                {"choices": [[question["choices"].index("a queue")]]})
        turns.append(turn)
        assert [s["agent"] for s in turn.of("message-start")] == ["prober", "teacher"]
        assert turn.text().count(LOOP) == 1

        # 3. a plan cut mid-call is asked again as JSON, and shown whole
        turn = await api.say(chat_id, LEARNER)
        turns.append(turn)
        (plan,) = [c for c in turn.of("tool-call") if c["name"] == "plan_init"]
        assert plan["state"] == "input-available" and "Queu" not in json.dumps(turn.text())
        assert "on screen this time" not in turn.text()  # no give-up line: the plan came
        for t in turns:
            _ended_cleanly(t)

        # 4. extraction: the invented id is repaired by its unique quote; the made-up one dropped
        await runtime.supervisor.idle()
        run_id = (await api.http.post(f"/api/chats/{chat_id}/extract")).json()["run_id"]
        run = await finished(runtime.library.extraction_run(run_id))
        assert run.status == "done", run.drops
        await asyncio.wait_for(runtime.supervisor.idle(), 30)
        texts = {n["text"] for n in (await api.http.get("/api/graph")).json()["nodes"]}
        assert "BFS keeps its frontier in a queue." in texts and "Made up." not in texts
        for record in services.graph_store.propositions().records:
            assert record.text != "Made up."
