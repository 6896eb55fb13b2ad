"""The intent router: quiz requests, clearly-outside-learning requests, and the hard cases
that are learning after all."""

from __future__ import annotations

import pytest
from studyhall.core.guardrails.intent import CHORE_REPLY, DISHONESTY_REPLY, route


@pytest.mark.parametrize("text", [
    "quiz me on photosynthesis", "Can you test me on the chain rule?",
    "give me 5 questions on cell biology", "check my understanding of Bayes theorem",
    "let's do a quick quiz",
])
def test_quiz_requests_go_to_the_quiz_flow(text: str) -> None:
    assert route(text).intent == "quiz"


@pytest.mark.parametrize(("text", "reply"), [
    ("Write my essay on Hamlet so I can submit it tomorrow", DISHONESTY_REPLY),
    ("do my homework for me, I need to hand it in", DISHONESTY_REPLY),
    ("take my online exam for me", DISHONESTY_REPLY),
    ("Book me a flight to Madrid", CHORE_REPLY),
    ("What's the weather like today?", CHORE_REPLY),
])
def test_out_of_scope_requests_get_a_kind_canned_reply(text: str, reply: str) -> None:
    decided = route(text)
    assert decided.intent == "out_of_scope"
    assert decided.reply == reply


@pytest.mark.parametrize("text", [
    "How do I write a good essay?", "Can you help me write my essay?",
    "Don't quiz me, just explain it again", "How do I test my Python code?",
    "What is a weather front?", "How do I avoid plagiarism when paraphrasing?",
    "I have a quiz tomorrow on cell division, can you explain mitosis?",
    "Help me with my homework: how do I factor x^2 + 5x + 6?",
])
def test_learning_that_looks_like_something_else_goes_to_the_teacher(text: str) -> None:
    assert route(text).intent == "teach"
