"""The scripted trees session that becomes graph knowledge: the prober's quiz, the learner's
claim, and the extractor/auditor answers about it (graph HTTP and upkeep flow tests)."""

from __future__ import annotations

from typing import Any

from studyhall.server.runtime.runtime import Runtime

QUIZ = {"questions": [{"prompt": "How many edges does a tree on 5 vertices have?",
                       "choices": ["4", "5", "10"], "correct": [0]}]}
LEARNER = "I think a tree with 5 vertices has 4 edges, one fewer than its vertices."
TREE = "A tree on n vertices has n - 1 edges."
EXTRACTION = {
    "propositions": [
        {"key": "p1", "text": TREE, "understanding": "solid", "quizzes": ["probe_q/q1"],
         "evidence": [{"message_id": "m_learner", "quote": "a tree with 5 vertices has 4 edges"}]},
        {"key": "p2", "text": "Trees have no cycles.",
         "evidence": [{"message_id": "m_learner", "quote": "trees never have cycles"}]},
    ],
    "edges": [{"from": "p2", "to": "p1", "kind": "supports"},
              {"from": "p1", "to": "p1", "kind": "follows"}],
}


def script(extractor: list[Any], auditor: list[Any]) -> dict[str, Any]:
    return {
        "prober": [
            {"text": "Quick check:", "tool_calls": [
                {"name": "quiz", "arguments": QUIZ, "id": "probe_q"}]},
            {"text": "Right, well done."},
        ],
        "labeler": [{"text": "Trees"}],
        "extractor": extractor,
        "auditor": auditor,
    }


async def hold_session(api: Any, runtime: Runtime) -> str:
    chat_id = await api.new_chat("trees")
    turn = await api.say(chat_id, LEARNER, id="m_learner")
    assert turn.status == 200, turn.body
    question = (await api.chat(chat_id))["pending"][0]["presented"]["questions"][0]
    answer = {"choices": [[question["choices"].index("4")]]}
    assert (await api.answer(chat_id, "probe_q", answer)).status == 200
    await runtime.supervisor.idle()
    return chat_id
