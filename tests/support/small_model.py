"""A scripted small local model (issue 31): what it says when it cannot call tools — calls
printed as text — for the flow and browser tests of the small-model session."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from studyhall.core.library.extraction.batching import Batch
from studyhall.core.library.extraction.coverage import View

QUIZ = {"questions": [{"prompt": "Which structure does BFS keep its frontier in?",
                       "choices": ["a queue", "a stack", "a heap"], "correct": [0],
                       "explanation": "First in, first out: level by level."}]}
PROBE = {"floor": "knows graphs", "ceiling": "BFS order", "goal": "pass the exam",
         "summary": "Keen; knows the words, not yet the algorithm."}


def printed_prober() -> list[dict[str, Any]]:
    """The prober's two replies: a greeting with the quiz printed in tags, then its assessment
    printed in a JSON fence."""
    return [
        {"text": "Hi! A quick check first.\n<tool_call>\n"
                 + json.dumps({"name": "quiz", "arguments": QUIZ}) + "\n</tool_call>"},
        {"text": "Good.\n```json\n" + json.dumps({"name": "probe_done", "arguments": PROBE})
                 + "\n```"},
    ]


def open_new_session(page: Any, url: str, topic: str) -> None:
    """The window at 1024×700 on ``url``, a new session on ``topic`` started from the keyboard."""
    page.set_viewport_size({"width": 1024, "height": 700})
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    page.keyboard.press("n")
    page.fill("#new-topic", topic)
    page.keyboard.press("Enter")


def one_view_batch() -> Batch:
    """An extraction batch of one learner message."""
    view = View(source_id="chat_1", message_id="msg_a1", label="learner",
                lines=("BFS visits the nearest nodes first.",), fingerprint="f", tokens=10,
                at=datetime(2026, 1, 1, tzinfo=UTC))
    return Batch("chat_1", (view,))
