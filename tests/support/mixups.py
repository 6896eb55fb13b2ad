"""A learner who keeps confusing P(A|B) with P(B|A): a session whose two quizzes were answered
with that same distractor, linked by extraction to the topic "Conditional probability" — the
evidence the misconception rule reads (the graph's quiz events, the transcript's choices).
Written through the ports, dated relative to ``now``."""

from __future__ import annotations

from datetime import datetime, timedelta

from studyhall.core.contracts.chat import ChatRecord, Message, TextPart, ToolCallPart
from studyhall.core.contracts.graph import Evidence, PropositionCreated, QuizEvent, RunCheckpoint
from studyhall.core.contracts.quiz import QuestionResult, QuizOutput
from studyhall.server.services import Services

CHAT = "chat_bayes"
NODE = "bayes"
TEXT = "Conditional probability: P(A|B) is the probability of A given B"
RIGHT, WRONG = "P(A|B)", "P(B|A)"
LINE = "You often confuse “P(B|A)” and “P(A|B)”: 2 times"
CHOICES = [RIGHT, WRONG, "P(A) · P(B)"]


def _quiz(n: int, at: datetime, verdict: str) -> Message:
    picked = 1 if verdict == "miss" else 0
    output = QuizOutput(
        correct=int(verdict == "correct"), total=1, answered_at=at.isoformat(),
        results=(QuestionResult(index=0, kind="single", prompt="Given B, the chance of A is…",
                                verdict=verdict, response=CHOICES[picked], chosen=(picked,),
                                expected=(RIGHT,)),))
    part = ToolCallPart(tool_call_id=f"call_mix{n}", name="quiz", state="output-available",
                        input={"questions": [{"prompt": "Given B, the chance of A is…",
                                              "choices": CHOICES, "correct": [0]}]},
                        output=output.model_dump(mode="json"))
    return Message(id=f"m_q{n}", role="assistant", parts=(part,), created_at=at,
                   agent="teacher")


def seed_mixups(services: Services, now: datetime, misses: int = 2) -> None:
    """The topic, and ``misses`` wrong answers picking P(B|A), a day apart, ending yesterday."""
    start = now - timedelta(days=misses + 1)
    times = [start + timedelta(days=k) for k in range(misses)]
    messages = [Message(id="m_0", role="user", parts=(TextPart(text="Teach me Bayes"),),
                        created_at=start)]
    messages += [_quiz(k, t, "miss") for k, t in enumerate(times)]
    services.chat_store.create(ChatRecord(id=CHAT, topic="Bayes", title="Bayes' rule",
                                          created_at=start, updated_at=times[-1],
                                          messages=tuple(messages)))
    graph = services.graph_store
    graph.append_propositions([PropositionCreated(
        id="prp_bayes", node_id=NODE, text=TEXT, source_id=CHAT,
        evidence=(Evidence(source_id=CHAT, message_id="m_0", quote="Teach me Bayes"),),
        run_id="r_mix", at=start)])
    graph.append_quiz_events([
        QuizEvent(id=f"quz_mix{k}", node_id=NODE, verdict="miss", source_id=CHAT,
                  tool_call_id=f"call_mix{k}", question_index=0, run_id="r_mix", at=t)
        for k, t in enumerate(times)])
    graph.append_checkpoint(RunCheckpoint(id="r_mix", source_id=CHAT, started_at=start,
                                          finished_at=times[-1]))
