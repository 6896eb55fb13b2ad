"""Kept study artifacts: what a finished notes / flashcards / plan / guide / mind-map job left, the
scope it was made from, and the tombstone that deletes one (the ledger stays append-only).

An artifact's id comes from the job that wrote it (``artifact_id``), so keeping the same job's
result twice — a retry, a restart that catches up — is a replayed id the ledger ignores.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any, Literal, get_args

from pydantic import Field
from studyhall.core.contracts.base import Record
from studyhall.core.contracts.jobs import JobKind

ScopeType = Literal["graph", "source", "session", "topic", "cluster", "selection"]
SCOPE_TYPES: tuple[ScopeType, ...] = get_args(ScopeType)
MAX_SELECTION = 200  # nodes a selection may name (a lasso over the whole map is "graph")


class Scope(Record):
    """What an artifact is made from. ``id`` names the source, session, topic node or cluster
    (null for the graph and a selection); ``node_ids`` only for a selection; ``label`` is how
    the learner reads it, filled by the server."""

    type: ScopeType
    id: str | None = Field(default=None, min_length=1, max_length=256)
    node_ids: tuple[str, ...] = Field(default=(), max_length=MAX_SELECTION)
    label: str = Field(default="", max_length=300)


class ArtifactCounts(Record):
    cards: int | None = Field(default=None, ge=0)  # flashcards only
    dropped: int = Field(default=0, ge=0)  # cards or claims the check dropped as unbacked


class Artifact(Record):
    """One kept artifact (``artifacts/kept.jsonl``)."""

    id: str = Field(min_length=1, max_length=200)
    kind: JobKind
    title: str = Field(min_length=1, max_length=300)
    scope: Scope
    created_at: datetime
    job_id: str = Field(min_length=1)
    chat_id: str | None = None  # the session it was written in, if any
    content: dict[str, Any]  # the kind's result, as the writer's check left it
    counts: ArtifactCounts = ArtifactCounts()


class ArtifactRemoved(Record):
    """The learner deleted an artifact (``artifacts/removed.jsonl``); its own id is unique."""

    id: str = Field(min_length=1, max_length=220)
    artifact_id: str = Field(min_length=1, max_length=200)
    at: datetime


def artifact_id(job_id: str, kind: str) -> str:
    """The artifact a job keeps for ``kind`` (a session job may write several kinds)."""
    return f"art_{job_id}_{kind}"


def removal_id(artifact: str) -> str:
    """One tombstone per artifact: deleting twice is a replay, not a second record."""
    return f"del_{artifact}"


def live_artifacts(kept: Iterable[Artifact], removed: Iterable[ArtifactRemoved]) -> list[Artifact]:
    """The artifacts not deleted, newest first (then by id, so the order is stable)."""
    gone = {r.artifact_id for r in removed}
    alive = [a for a in kept if a.id not in gone]
    return sorted(alive, key=lambda a: (a.created_at, a.id), reverse=True)
