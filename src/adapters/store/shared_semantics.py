"""The port semantics every store implementation shares (file and in-memory alike).

Upsert by id, orderings and summaries live here once, so the adapters differ only in where the
bytes go and the contract tests hold them to the same behaviour.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from studyhall.core.contracts.chat import ChatRecord, ChatSummary, Message
from studyhall.core.contracts.jobs import Job
from studyhall.core.contracts.sources import Source
from studyhall.core.errors import StoreError


def _ts(at: datetime) -> float:
    # A naive datetime is taken as UTC so that mixed values still sort instead of raising.
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).timestamp()


def upsert_messages(record: ChatRecord, messages: Sequence[Message], at: datetime) -> ChatRecord:
    """A known message id is replaced in place, a new one appended (in the order given)."""
    for m in messages:
        if not isinstance(m, Message):
            raise StoreError(
                f"Refused to save chat {record.id}: expected Message objects, got "
                f"{type(m).__name__}. Nothing was written."
            )
    merged = list(record.messages)
    where = {m.id: i for i, m in enumerate(merged)}
    for m in messages:
        i = where.get(m.id)
        if i is None:
            where[m.id] = len(merged)
            merged.append(m)
        else:
            merged[i] = m
    # model_copy skips validation on purpose: the caller shape-guards the result before writing.
    return record.model_copy(update={"messages": tuple(merged), "updated_at": at})


def summarize(record: ChatRecord) -> ChatSummary:
    return ChatSummary(
        id=record.id,
        topic=record.topic,
        title=record.title,
        created_at=record.created_at,
        updated_at=record.updated_at,
        message_count=len(record.messages),
    )


def newest_first(summaries: Sequence[ChatSummary]) -> list[ChatSummary]:
    """Most recently updated first; ties by creation time, then id (both descending)."""
    return sorted(
        summaries, key=lambda s: (_ts(s.updated_at), _ts(s.created_at), s.id), reverse=True
    )


def oldest_first(jobs: Sequence[Job]) -> list[Job]:
    return sorted(jobs, key=lambda j: (_ts(j.created_at), j.id))


def by_location(sources: Sequence[Source]) -> list[Source]:
    return sorted(sources, key=lambda s: (s.root, s.path, s.id))
