"""Ports: the protocols every edge implements. Types only; adapters live in ``adapters/``.

Storage is per-entity and semantic (never one generic interface). Stores persist and
shape-guard; they never decide — merge, dedup and derivation live in core.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, Literal, Protocol, TypeVar, Union

from .contracts.chat import ChatRecord, ChatSummary, Message, Usage
from .contracts.graph import (
    Cluster,
    CoverageFingerprint,
    EdgeAdded,
    IdentityLinked,
    Position,
    PropositionCreated,
    QuizEvent,
    RunCheckpoint,
    UnderstandingObserved,
)
from .contracts.jobs import Job
from .contracts.settings import ModelRole, Settings
from .contracts.sources import Source

T = TypeVar("T")


# --- time and ids -------------------------------------------------------------------------


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware (UTC)."""
        ...


class Ids(Protocol):
    def new(self, prefix: str) -> str:
        """A fresh unique id such as ``chat_3f9a...``."""
        ...


# --- storage ------------------------------------------------------------------------------


@dataclass(frozen=True)
class LedgerRead(Generic[T]):
    """What a tolerant ledger read returns: the valid records and how many lines were skipped."""

    records: tuple[T, ...]
    skipped: int = 0
    skipped_reasons: tuple[str, ...] = field(default=())


class ChatStore(Protocol):
    def create(self, record: ChatRecord) -> None: ...

    def get(self, chat_id: str) -> ChatRecord | None: ...

    def list(self) -> list[ChatSummary]:
        """Every chat, newest first."""
        ...

    def save_messages(self, chat_id: str, messages: Sequence[Message], at: datetime) -> ChatRecord:
        """Upsert by message id: a known id is replaced in place, a new one appended."""
        ...

    def set_title(self, chat_id: str, title: str, at: datetime) -> None: ...


class GraphStore(Protocol):
    # append-only ledgers (one fsync per call)
    def append_propositions(self, records: Sequence[PropositionCreated]) -> None: ...
    def append_edges(self, records: Sequence[EdgeAdded]) -> None: ...
    def append_quiz_events(self, records: Sequence[QuizEvent]) -> None: ...
    def append_observations(self, records: Sequence[UnderstandingObserved]) -> None: ...
    def append_identity_links(self, records: Sequence[IdentityLinked]) -> None: ...
    def append_coverage(self, source_id: str, records: Sequence[CoverageFingerprint]) -> None: ...
    def append_checkpoint(self, record: RunCheckpoint) -> None: ...

    # tolerant, incremental, replay-deduplicated reads
    def propositions(self) -> LedgerRead[PropositionCreated]: ...
    def edges(self) -> LedgerRead[EdgeAdded]: ...
    def quiz_events(self) -> LedgerRead[QuizEvent]: ...
    def observations(self) -> LedgerRead[UnderstandingObserved]: ...
    def identity_links(self) -> LedgerRead[IdentityLinked]: ...
    def coverage(self, source_id: str) -> LedgerRead[CoverageFingerprint]: ...
    def checkpoints(self) -> LedgerRead[RunCheckpoint]: ...

    # whole-file side stores
    def positions(self) -> dict[str, Position]: ...
    def save_positions(self, positions: Mapping[str, Position]) -> None: ...
    def embeddings(self, model: str) -> dict[str, tuple[float, ...]]: ...
    def save_embeddings(self, model: str, vectors: Mapping[str, Sequence[float]]) -> None: ...
    def clusters(self) -> list[Cluster]: ...
    def save_clusters(self, clusters: Sequence[Cluster]) -> None: ...


class JobStore(Protocol):
    def save(self, job: Job) -> None: ...
    def get(self, job_id: str) -> Job | None: ...
    def list(self, chat_id: str | None = None) -> list[Job]: ...


class SourceStore(Protocol):
    def save(self, source: Source) -> None: ...
    def save_many(self, sources: Sequence[Source]) -> None: ...
    def get(self, source_id: str) -> Source | None: ...
    def list(self) -> list[Source]: ...
    def remove(self, source_id: str) -> None: ...


class SettingsStore(Protocol):
    def load(self) -> Settings:
        """The saved settings, or the defaults when none are saved."""
        ...

    def save(self, settings: Settings) -> None: ...


class SecretStore(Protocol):
    """API keys per provider. Values never leave through logs, argv or error messages."""

    def get(self, name: str) -> str | None: ...
    def set(self, name: str, value: str) -> None: ...
    def delete(self, name: str) -> None: ...
    def names(self) -> list[str]: ...


# --- models -------------------------------------------------------------------------------

ProviderMessage = dict[str, Any]  # OpenAI-style chat message (role, content, tool_calls, ...)


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    parameters: dict[str, Any]  # JSON schema of the arguments


@dataclass(frozen=True)
class ModelRequest:
    role: ModelRole
    messages: tuple[ProviderMessage, ...]
    tools: tuple[ToolSpec, ...] = ()
    # A JSON schema the answer must follow (structured output for extractor/auditor).
    response_schema: dict[str, Any] | None = None


@dataclass(frozen=True)
class TextDelta:
    text: str
    type: Literal["text-delta"] = "text-delta"


@dataclass(frozen=True)
class ToolCallEvent:
    """A complete tool call; ``arguments`` is parsed JSON, or ``raw`` holds what failed to parse."""

    id: str
    name: str
    arguments: dict[str, Any] | None
    raw: str = ""
    type: Literal["tool-call"] = "tool-call"


@dataclass(frozen=True)
class UsageEvent:
    usage: Usage
    model: str | None = None
    type: Literal["usage"] = "usage"


@dataclass(frozen=True)
class FinishEvent:
    reason: str  # "stop", "tool_calls", "length", ...
    type: Literal["finish"] = "finish"


ModelEvent = Union[TextDelta, ToolCallEvent, UsageEvent, FinishEvent]


class ChatModel(Protocol):
    def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        """Stream one completion. Raises ``core.errors.ModelError`` subclasses on failure."""
        ...


class Embedder(Protocol):
    @property
    def model_id(self) -> str: ...

    async def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        """One unit-length vector per text, same order."""
        ...
