"""Storage ports, one per entity (never one generic interface). Stores persist and
shape-guard; they never decide: merge, dedup and derivation live in core."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from studyhall.core.contracts.artifacts import Artifact, ArtifactRemoved
from studyhall.core.contracts.asks import AskExchange, AskThread, AskThreadSummary
from studyhall.core.contracts.chat import ChatRecord, ChatSummary, Message
from studyhall.core.contracts.goals import GoalRemoved, GoalSaved
from studyhall.core.contracts.graph import (
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
from studyhall.core.contracts.jobs import Job
from studyhall.core.contracts.learner import (
    AssertionRetracted,
    CardSuspended,
    FlashcardKept,
    FlashcardsRetired,
    GradeUndone,
    LearnerAsserted,
    LearnerObserved,
    ReviewGraded,
    ReviewQuestionWritten,
    SourceQuizAnswered,
)
from studyhall.core.contracts.ledger import LedgerRead
from studyhall.core.contracts.search import Vector, VectorLike
from studyhall.core.contracts.settings import Settings
from studyhall.core.contracts.sources import Source


class ChatStore(Protocol):
    def create(self, record: ChatRecord) -> None:
        """Persist a new chat; ``StoreError`` if a chat with that id already exists."""
        ...

    def get(self, chat_id: str) -> ChatRecord | None: ...

    def list(self) -> list[ChatSummary]:
        """Every chat, newest first."""
        ...

    def save_messages(self, chat_id: str, messages: Sequence[Message], at: datetime) -> ChatRecord:
        """Upsert by message id: a known id is replaced in place, a new one appended.

        Sets ``updated_at`` to ``at`` and returns the saved record; ``NotFound`` for an unknown
        chat. Saving the same messages again (a replay) changes nothing but ``updated_at``.
        """
        ...

    def set_title(self, chat_id: str, title: str, at: datetime) -> None:
        """Set the title and ``updated_at``; ``NotFound`` for an unknown chat."""
        ...


class GraphStore(Protocol):
    # append-only ledgers (one fsync per call)
    def append_propositions(self, records: Sequence[PropositionCreated]) -> None: ...
    def append_edges(self, records: Sequence[EdgeAdded]) -> None: ...
    def append_quiz_events(self, records: Sequence[QuizEvent]) -> None: ...
    def append_observations(self, records: Sequence[UnderstandingObserved]) -> None: ...
    def append_identity_links(self, records: Sequence[IdentityLinked]) -> None: ...
    def append_coverage(self, source_id: str, records: Sequence[CoverageFingerprint]) -> None:
        """Append to ``source_id``'s coverage ledger; every record's source_id must match."""
        ...

    def append_checkpoint(self, record: RunCheckpoint) -> None: ...

    # tolerant, incremental, replay-deduplicated reads
    def propositions(self) -> LedgerRead[PropositionCreated]: ...
    def edges(self) -> LedgerRead[EdgeAdded]: ...
    def quiz_events(self) -> LedgerRead[QuizEvent]: ...
    def observations(self) -> LedgerRead[UnderstandingObserved]: ...
    def identity_links(self) -> LedgerRead[IdentityLinked]: ...
    def coverage(self, source_id: str) -> LedgerRead[CoverageFingerprint]: ...
    def checkpoints(self) -> LedgerRead[RunCheckpoint]: ...

    # whole-file side stores (replaced as a whole; unreadable entries are skipped and logged,
    # since each is derived and can be recomputed)
    def positions(self) -> dict[str, Position]: ...
    def save_positions(self, positions: Mapping[str, Position]) -> None: ...
    def embeddings(self, model: str) -> dict[str, Vector]:
        """The vectors saved for ``model``: float32 rows (of one matrix), or ``{}``."""
        ...

    def save_embeddings(self, model: str, vectors: Mapping[str, VectorLike]) -> None:
        """Replace ``model``'s vectors: finite numbers, one dimension for all, else StoreError."""
        ...

    def clusters(self) -> list[Cluster]: ...
    def save_clusters(self, clusters: Sequence[Cluster]) -> None: ...


@runtime_checkable
class GraphTails(Protocol):
    """What a file-backed ``GraphStore`` adds so a long-lived reader folds a large graph once:
    tail reads of the graph ledgers, and a derived, disposable fold cache beside them.

    ``marks`` are the store's own opaque values; ``state`` is plain data (tuples, str, int,
    float, None, bytes) from ``core.library.fold_state.to_plain``.
    """

    def read_since(self, marks: object | None,
                   feed: Callable[[str, Sequence[Any]], None]) -> object | None:
        """Feed ``feed(ledger, records)`` the valid records appended since ``marks`` (all when
        None) — checkpoints first, then propositions, identities, edges, quiz_events,
        observations; in chunks, in file order; replays ignored, bad lines skipped and logged.
        Return the marks to continue from, or None when ``marks`` no longer describe the files
        (one was replaced, truncated or rewritten): nothing was fed; start over from None."""
        ...

    def load_fold_cache(self) -> tuple[object, Any] | None:
        """The marks and plain fold state last saved; None when there is none or it is not
        usable (damaged, another version) — never an error."""
        ...

    def save_fold_cache(self, marks: object, state: Any) -> None:
        """Replace the fold cache atomically (StoreError when it cannot be written)."""
        ...


class LearnerStore(Protocol):
    """The learner ledgers: review grades (and the ones taken back), the cards taken out of
    review, the teacher's observations, "Quiz me" answers,
    model-written review questions that passed the evidence check, and the flashcards the
    learner kept (and their artifacts' retirements), the learner's own assertions (and their
retractions), append-only (one fsync
    per call; a batch is written whole or not at all), read tolerantly (torn or invalid lines
    skipped and counted, a replayed id ignored)."""

    def append_grades(self, records: Sequence[ReviewGraded]) -> None: ...
    def append_undone(self, records: Sequence[GradeUndone]) -> None: ...
    def undone(self) -> LedgerRead[GradeUndone]: ...
    def append_suspensions(self, records: Sequence[CardSuspended]) -> None: ...
    def suspensions(self) -> LedgerRead[CardSuspended]: ...
    def append_observations(self, records: Sequence[LearnerObserved]) -> None: ...
    def append_quiz_answers(self, records: Sequence[SourceQuizAnswered]) -> None: ...
    def grades(self) -> LedgerRead[ReviewGraded]: ...
    def observations(self) -> LedgerRead[LearnerObserved]: ...
    def quiz_answers(self) -> LedgerRead[SourceQuizAnswered]: ...
    def append_questions(self, records: Sequence[ReviewQuestionWritten]) -> None: ...
    def questions(self) -> LedgerRead[ReviewQuestionWritten]: ...
    def append_flashcards(self, records: Sequence[FlashcardKept]) -> None: ...
    def flashcards(self) -> LedgerRead[FlashcardKept]: ...
    def append_retirements(self, records: Sequence[FlashcardsRetired]) -> None: ...
    def retirements(self) -> LedgerRead[FlashcardsRetired]: ...
    def append_assertions(self, records: Sequence[LearnerAsserted]) -> None: ...
    def assertions(self) -> LedgerRead[LearnerAsserted]: ...
    def append_retractions(self, records: Sequence[AssertionRetracted]) -> None: ...
    def retractions(self) -> LedgerRead[AssertionRetracted]: ...


class AskStore(Protocol):
    """The Ask history: one conversation per record, each write replacing it whole (a kill
    mid-write leaves the previous version)."""

    def save(self, thread: AskThread) -> None: ...

    def put_exchange(self, thread_id: str, exchange: AskExchange, now: datetime) -> None:
        """Write one exchange of a conversation as it stands now (a checkpoint or the final
        version): it replaces the exchange with the same ``id``, else it is appended; the
        conversation is created at ``now`` when it is new and is ``updated_at`` ``now``."""
        ...
    def get(self, thread_id: str) -> AskThread | None: ...

    def list(self) -> list[AskThreadSummary]:
        """Every conversation, most recently asked first."""
        ...

    def remove(self, thread_id: str) -> None:
        """Forget a conversation; ``NotFound`` when it is unknown."""
        ...


class ArtifactStore(Protocol):
    """Kept study artifacts and their deletions: two append-only ledgers (one fsync per call,
    a batch written whole or not at all), read tolerantly (a torn or invalid line skipped and
    counted, a replayed id ignored — so keeping the same artifact twice keeps it once). Which
    artifacts are live is derived (``contracts.artifacts.live_artifacts``), never stored."""

    def keep(self, records: Sequence[Artifact]) -> None: ...
    def remove(self, records: Sequence[ArtifactRemoved]) -> None: ...
    def kept(self) -> LedgerRead[Artifact]: ...
    def removed(self) -> LedgerRead[ArtifactRemoved]: ...


class GoalStore(Protocol):
    """The learner's goals: every version saved and the deletions, two append-only ledgers (one
    fsync per call, a batch written whole or not at all, so a kill mid-write leaves the version
    before it), read tolerantly (a torn or invalid line skipped and counted, a replayed id
    ignored). The live goals are derived (``contracts.goals.live_goals``), never stored."""

    def save(self, records: Sequence[GoalSaved]) -> None: ...
    def remove(self, records: Sequence[GoalRemoved]) -> None: ...
    def saved(self) -> LedgerRead[GoalSaved]: ...
    def removed(self) -> LedgerRead[GoalRemoved]: ...


class JobStore(Protocol):
    def save(self, job: Job) -> None:
        """Upsert by job id."""
        ...

    def get(self, job_id: str) -> Job | None: ...

    def list(self, chat_id: str | None = None) -> list[Job]:
        """Jobs (of one chat, or all), oldest first (``created_at``, then id)."""
        ...


class SourceStore(Protocol):
    def save(self, source: Source) -> None:
        """Upsert by source id."""
        ...

    def save_many(self, sources: Sequence[Source]) -> None:
        """Upsert all in one write: every source is saved, or (on any refusal) none."""
        ...

    def get(self, source_id: str) -> Source | None: ...

    def list(self) -> list[Source]:
        """Every source, ordered by root, then path, then id."""
        ...

    def remove(self, source_id: str) -> None:
        """Forget a source; ``NotFound`` when it is unknown."""
        ...


class SettingsStore(Protocol):
    def load(self) -> Settings:
        """The saved settings, or the defaults when none are saved (StoreError if unreadable)."""
        ...

    def save(self, settings: Settings) -> None: ...

    def update(self, change: Callable[[Settings], Settings]) -> Settings:
        """Load, ``change``, save as one step: no other update or save runs in between, so
        concurrent changes to different fields are all kept. Returns what was saved."""
        ...


class SecretStore(Protocol):
    """API keys per provider. Values never leave through logs, argv or error messages."""

    def get(self, name: str) -> str | None: ...
    def set(self, name: str, value: str) -> None: ...
    def delete(self, name: str) -> None: ...
    def names(self) -> list[str]: ...
