"""Small builders of valid contract records for the store contract and fault tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from studyhall.core.contracts.chat import ChatRecord, Message, TextPart, ToolCallPart
from studyhall.core.contracts.graph import (
    CoverageFingerprint,
    EdgeAdded,
    Evidence,
    IdentityLinked,
    PropositionCreated,
    QuizEvent,
    RunCheckpoint,
    UnderstandingObserved,
)
from studyhall.core.contracts.jobs import Job
from studyhall.core.contracts.sources import Source

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def at(minutes: float = 0) -> datetime:
    return T0 + timedelta(minutes=minutes)


def message(mid: str, text: str = "hello", *, role: str = "user", minute: float = 0) -> Message:
    return Message(id=mid, role=role, parts=(TextPart(text=text),), created_at=at(minute))


def tool_message(
    mid: str, call_id: str, tool_input: dict[str, Any], *, minute: float = 0
) -> Message:
    part = ToolCallPart(
        tool_call_id=call_id, name="quiz", input=tool_input, state="input-available"
    )
    return Message(id=mid, role="assistant", parts=(part,), created_at=at(minute), agent="teacher")


def chat(
    cid: str = "chat_a",
    *,
    minute: float = 0,
    topic: str | None = None,
    messages: tuple[Message, ...] = (),
) -> ChatRecord:
    return ChatRecord(
        id=cid, topic=topic, created_at=at(minute), updated_at=at(minute), messages=messages
    )


def proposition(
    rid: str,
    text: str = "Water boils at 100 C at sea level.",
    *,
    node_id: str | None = None,
    source_id: str = "chat_a",
) -> PropositionCreated:
    ev = Evidence(source_id=source_id, message_id="m1", quote="boils at 100")
    return PropositionCreated(
        id=rid,
        node_id=node_id or f"n_{rid}",
        text=text,
        evidence=(ev,),
        source_id=source_id,
        run_id="run_1",
        at=at(),
    )


def edge(rid: str, src: str = "n_1", dst: str = "n_2") -> EdgeAdded:
    return EdgeAdded.model_validate(
        {
            "id": rid,
            "from": src,
            "to": dst,
            "relation": "follows",
            "source_id": "chat_a",
            "run_id": "run_1",
            "at": at(),
        }
    )


def quiz_event(rid: str, verdict: str = "correct") -> QuizEvent:
    return QuizEvent(
        id=rid,
        node_id="n_1",
        verdict=verdict,
        source_id="chat_a",
        tool_call_id="call_1",
        question_index=0,
        run_id="run_1",
        at=at(),
    )


def observation(rid: str, level: str = "partial") -> UnderstandingObserved:
    return UnderstandingObserved(
        id=rid,
        node_id="n_1",
        level=level,
        source_id="chat_a",
        message_ids=("m1",),
        run_id="run_1",
        at=at(),
    )


def identity(rid: str) -> IdentityLinked:
    return IdentityLinked(
        id=rid,
        node_id="n_1",
        text="Same idea, other words.",
        source_id="chat_b",
        run_id="run_2",
        at=at(),
    )


def coverage(source_id: str, fingerprint: str, *, tokens: int = 10) -> CoverageFingerprint:
    return CoverageFingerprint(
        id=f"{source_id}:{fingerprint}",
        source_id=source_id,
        message_id=f"m_{fingerprint}",
        fingerprint=fingerprint,
        tokens=tokens,
        run_id="run_1",
        at=at(),
    )


def checkpoint(run_id: str, *, propositions: int = 1) -> RunCheckpoint:
    return RunCheckpoint(
        id=run_id, source_id="chat_a", started_at=at(), finished_at=at(1), propositions=propositions
    )


def job(jid: str, *, chat_id: str = "chat_a", minute: float = 0, status: str = "queued") -> Job:
    return Job(
        id=jid,
        chat_id=chat_id,
        kind="research",
        status=status,
        input={"query": "why is the sky blue"},
        created_at=at(minute),
        updated_at=at(minute),
    )


def source(
    sid: str, path: str, *, root: str = "/home/me/vault", status: str = "imported"
) -> Source:
    return Source(
        id=sid,
        path=path,
        root=root,
        kind="note",
        status=status,
        content_hash="abc",
        size=12,
        links=("b.md",),
        imported_at=at(),
    )
