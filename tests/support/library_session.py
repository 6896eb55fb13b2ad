"""A small real-looking session (a derivative lesson) for library tests, and extractor and
auditor answers about it (script them with ``tests.support.chat_script.scripted``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from studyhall.core.contracts.chat import Message, TextPart, ToolCallPart
from studyhall.core.contracts.quiz import QuestionResult, QuizOutput

T0 = datetime(2025, 3, 1, 10, 0, tzinfo=UTC)
CHAT = "chat_0001"


def at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def text(mid: str, role: str, body: str, minute: int, agent: str | None = None) -> Message:
    return Message(id=mid, role=role, parts=(TextPart(text=body),), created_at=at(minute),
                   agent=agent if role == "assistant" else None)


QUESTIONS = [
    {"prompt": "What is the derivative of x^2?", "choices": ["x", "2x", "x^2"], "correct": [1]},
    {"prompt": "What is the derivative of a constant?", "choices": ["0", "1"], "correct": [0]},
]


def graded_output(verdicts: Sequence[str], minute: int) -> dict[str, Any]:
    """A graded quiz output in the classroom's ``QuizOutput`` contract."""
    results = []
    for i, verdict in enumerate(verdicts):
        q = QUESTIONS[i]
        right = q["choices"][q["correct"][0]]
        wrong = next(c for c in q["choices"] if c != right)
        response = {"correct": right, "miss": wrong, "dont-know": None}[verdict]
        results.append(QuestionResult(index=i, kind="single", prompt=q["prompt"],
                                      verdict=verdict, response=response, expected=(right,)))
    return QuizOutput(correct=sum(v == "correct" for v in verdicts), total=len(verdicts),
                      results=tuple(results), answered_at=at(minute).isoformat()
                      ).model_dump(mode="json")


def quiz(mid: str, call: str, minute: int, verdicts: Sequence[str] | None) -> Message:
    args = {"questions": QUESTIONS}
    graded = verdicts is not None
    part = ToolCallPart(tool_call_id=call, name="quiz", input=args,
                        state="output-available" if graded else "input-available",
                        output=graded_output(verdicts, minute + 1) if graded else None)
    return Message(id=mid, role="assistant", parts=(part,), created_at=at(minute), agent="teacher")


def session(graded: bool = True) -> list[Message]:
    return [
        text("m_1", "user", "What is a derivative, really?", 0),
        text("m_2", "assistant",
             "A derivative measures the instantaneous rate of change of a function.\n"
             "Formally it is the limit of difference quotients as h goes to 0.", 1, "teacher"),
        text("m_3", "user", "So the derivative of a constant is zero because it never changes.", 2),
        quiz("m_4", "call_q", 3, ["correct", "miss"] if graded else None),
    ]


def good_extraction() -> dict[str, Any]:
    return {
        "propositions": [
            {"key": "p1", "text": "A derivative is the instantaneous rate of change of a function.",
             "evidence": [{"message_id": "m_2",
                           "quote": "A derivative measures the instantaneous rate of change"}],
             "understanding": "partial", "quizzes": ["call_q/q1"]},
            {"key": "p2", "text": "The derivative of a constant function is zero.",
             "evidence": [{"message_id": "m_3/1",
                           "quote": "the derivative of a constant is zero"}],
             "understanding": "solid", "quizzes": ["call_q/q2"]},
        ],
        "edges": [{"from": "p1", "to": "p2", "kind": "follows"}],
    }


def keep_all(*keys: str, link: dict[str, str] | None = None) -> dict[str, Any]:
    link = link or {}
    return {"verdicts": [{"key": k, "keep": True, "reason": "backed",
                          **({"link_to": link[k]} if k in link else {})} for k in keys]}
