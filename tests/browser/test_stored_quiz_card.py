"""A session's answered quiz reads its score from the stored output, and from the results when
an older or hand-edited output lacks its totals — never "undefined / undefined correct"."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from studyhall.core.contracts.chat import ChatRecord, Message, TextPart, ToolCallPart

from tests.support.live_server import start_server

pytestmark = pytest.mark.browser

QUESTION = {"prompt": "Which vertex comes first?", "choices": ["The start", "The end"], "correct": [0]}
RESULT = {"index": 0, "kind": "single", "prompt": QUESTION["prompt"], "verdict": "correct",
          "response": "The start", "expected": ["The start"]}


def _chat(at: datetime) -> ChatRecord:
    def quiz(n: int, output: dict) -> Message:
        part = ToolCallPart(tool_call_id=f"call_{n}", name="quiz", input={"questions": [QUESTION]},
                            state="output-available", output=output)
        return Message(id=f"m_{n}", role="assistant", parts=(part,), created_at=at, agent="prober")
    return ChatRecord(id="chat_stored", topic="graphs", title="Graphs", created_at=at, updated_at=at,
                      messages=(Message(id="m_0", role="user", parts=(TextPart(text="Graphs"),),
                                        created_at=at),
                                quiz(1, {"status": "answered", "correct": 1, "total": 1, "results": [RESULT]}),
                                quiz(2, {"results": [RESULT, {**RESULT, "verdict": "miss"}]})))


@pytest.mark.parametrize("window", ["light"], indirect=True)
def test_a_stored_quiz_says_its_score_even_without_totals(window, tmp_path):
    server = start_server(tmp_path / "data", None)
    server.services.chat_store.create(_chat(datetime.now().astimezone() - timedelta(hours=1)))
    try:
        page = window.page
        page.goto(f"{server.launch_url}#/session/chat_stored")
        page.wait_for_selector("body[data-ready='1']")
        kickers = page.locator(".quiz-card .card-kicker")
        kickers.nth(1).wait_for(timeout=30_000)
        # (The kicker is upper-cased by CSS; inner_text reports it either way.)
        said = [t.lower() for t in kickers.all_inner_texts()]
        assert said == ["question · 1 / 1 correct", "question · 1 / 2 correct"], said
        assert "undefined" not in page.locator(".transcript, main").first.inner_text().lower()
    finally:
        server.stop()
