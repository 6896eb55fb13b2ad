"""Ports: the protocols every edge implements. Types only; adapters live in ``adapters/``.

Storage is per-entity and semantic (never one generic interface). Stores persist and
shape-guard; they never decide — merge, dedup and derivation live in core.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, Literal, Protocol, TypeVar, Union, runtime_checkable

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
    """What a tolerant ledger read returns: the valid records and how many lines were skipped.

    ``records`` are in append order, one per id (a replayed append of a known id is ignored and
    counted in ``replayed``). ``skipped`` counts lines that were torn or did not parse or fit the
    record's shape; ``skipped_reasons`` says which and why (``"<file> line N: ..."``).
    """

    records: tuple[T, ...]
    skipped: int = 0
    skipped_reasons: tuple[str, ...] = field(default=())
    replayed: int = 0


# Shared rules of every store: a record that would not read back as its contract class (or an
# id that cannot name a file, for chats and jobs) is refused with ``StoreError`` and nothing is
# written; ``get`` of an unknown id returns ``None``; changing an unknown entity raises
# ``NotFound``; I/O failures raise ``StoreError`` with a message a user can act on.


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
    def embeddings(self, model: str) -> dict[str, tuple[float, ...]]:
        """The vectors saved for ``model`` (stored as float32), or ``{}``."""
        ...

    def save_embeddings(self, model: str, vectors: Mapping[str, Sequence[float]]) -> None:
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
        """Stream one completion. Raises ``core.errors.ModelError`` subclasses on failure.

        A successful stream is: ``TextDelta``s as they arrive, then every complete
        ``ToolCallEvent`` (in the order the model made them), then exactly one ``UsageEvent``
        (unknown fields are None) and exactly one ``FinishEvent``. Failures before the first
        event are retried inside the adapter when retrying is safe; after it they surface.
        With ``response_schema`` set, the JSON answer arrives as text deltas.
        """
        ...


class Embedder(Protocol):
    @property
    def model_id(self) -> str: ...

    async def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        """One unit-length vector per text, same order."""
        ...


# --- notes (vault files) ------------------------------------------------------------------


@dataclass(frozen=True)
class SkippedFile:
    """A file the import could not use, and why (said so a user can act on it)."""

    path: str  # vault-relative, "/"-separated
    reason: str


@dataclass(frozen=True)
class VaultScan:
    """What a walk of a vault found. ``files`` is every usable file of the whole vault (notes
    and attachments, for link resolution); ``notes`` the Markdown notes under the path asked
    for, which are the ones to import; ``skipped`` what under that path could not be used."""

    root: str  # absolute path of the vault root (the folder holding .obsidian/, else the path)
    target: str  # vault-relative path that was asked for ("" = the whole vault)
    files: tuple[str, ...]
    notes: tuple[str, ...]
    skipped: tuple[SkippedFile, ...] = ()


@dataclass(frozen=True)
class NoteFile:
    path: str
    text: str  # decoded UTF-8, byte-order mark removed
    meta: Mapping[str, Any]  # the frontmatter, loaded by a safe YAML reader ({} when none)
    meta_error: str | None  # why the frontmatter could not be read (the note still imports)
    size: int
    content_hash: str  # sha256 of the bytes


class VaultReader(Protocol):
    def scan(self, path: str) -> VaultScan:
        """Walk a file or folder. Raises ``NotFound`` when the path does not exist."""
        ...

    def read(self, scan: VaultScan, path: str) -> NoteFile | SkippedFile:
        """Read one note of a scan; a file that cannot be used comes back as ``SkippedFile``."""
        ...


# --- course material and retrieval (issue 10) ----------------------------------------------

MaterialKind = Literal["note", "transcript", "pdf", "text"]


@dataclass(frozen=True)
class Segment:
    """One structural unit a reader found: a transcript cue, a PDF page, a text paragraph."""

    text: str
    start: float | None = None  # seconds into the lecture (transcript cue)
    end: float | None = None
    page: int | None = None  # 1-based PDF page
    heading: str | None = None  # the heading this text sits under (notes / Markdown text)


@dataclass(frozen=True)
class MaterialFile:
    """A course file read into segments; ``path`` is root-relative and "/"-separated."""

    path: str
    kind: MaterialKind
    title: str
    segments: tuple[Segment, ...]
    size: int
    content_hash: str  # sha256 of the file's bytes
    media: str | None = None  # video file (root-relative) or URL that goes with a transcript


@dataclass(frozen=True)
class MaterialScan:
    root: str  # absolute folder the paths are relative to (the vault root, as for notes)
    files: tuple[str, ...]  # course files to read (root-relative)
    skipped: tuple[SkippedFile, ...] = ()
    single_file: bool = False  # a file was asked for, not a folder (nothing else is "gone")
    target: str = ""  # root-relative path that was asked for ("" = the whole root)


class MaterialReader(Protocol):
    """Reads course material (.vtt/.srt transcripts, PDFs, plain text, Markdown)."""

    def scan(self, path: str) -> MaterialScan:
        """Find readable course files under a file or folder; ``NotFound`` if nothing is there."""
        ...

    def read(self, root: str, path: str) -> MaterialFile | SkippedFile:
        """Read one file; a broken or unusable file comes back as ``SkippedFile`` with why."""
        ...


@dataclass(frozen=True)
class Chunk:
    """A retrievable passage, addressable by ``link`` (``path``, ``path#t=754``, ``path#page=12``,
    ``path#heading-slug``). ``sentences`` are the units coverage features are computed over."""

    id: str  # "<source_id>:<ordinal>"
    source_id: str
    path: str
    kind: MaterialKind
    title: str
    anchor: str  # "" (whole file), "t=754", "page=12" or a heading slug
    text: str
    heading: str | None = None
    start: float | None = None
    end: float | None = None
    page: int | None = None
    sentences: tuple[str, ...] = ()

    @property
    def link(self) -> str:
        return f"{self.path}#{self.anchor}" if self.anchor else self.path


@dataclass(frozen=True)
class Candidate:
    """A chunk the first stage found, with raw per-signal scores (higher is better).

    Signals: ``bm25`` (lexical, title/heading included), ``dense`` (cosine of query and chunk
    vectors), ``coverage`` (IDF share of the query's terms found in one sentence of the chunk).
    """

    chunk: Chunk
    signals: Mapping[str, float]


class SearchIndex(Protocol):
    """Lexical + vector index over chunks; persisted by the adapter, updated per source."""

    def source_hash(self, source_id: str) -> str | None:
        """The content hash the source was indexed with (``None`` if it is not indexed)."""
        ...

    def upsert(
        self, source_id: str, content_hash: str, chunks: Sequence[Chunk],
        vectors: Sequence[Sequence[float]], model_id: str,
    ) -> None:
        """Replace every chunk of ``source_id`` (one vector per chunk, same order)."""
        ...

    def remove(self, source_id: str) -> None: ...

    def chunks(self, source_id: str) -> list[Chunk]:
        """The source's chunks in reading order (``[]`` if it is not indexed)."""
        ...

    def candidates(
        self, query: str, vector: Sequence[float] | None, *, limit: int,
        source_id: str | None = None, model_id: str | None = None,
    ) -> list[Candidate]:
        """The union of the best lexical and dense hits, scoped to one source when given.
        ``model_id`` names the model that made ``vector``: when it is not ``vector_model()``
        the vector is ignored (lexical hits only), so incompatible vectors are never compared."""
        ...

    def size(self) -> int:
        """How many chunks are indexed."""
        ...

    def vector_model(self) -> str:
        """The embedding model whose chunk vectors a query vector is compared with ("" when no
        chunk has a vector). Sources embedded by another model count as no dense match."""
        ...

    def vector_models(self) -> dict[str, int]:
        """How many indexed chunks carry vectors of each embedding model."""
        ...

    def likely_typos(self, query: str) -> list[str]:
        """Words of ``query`` that no chunk contains but that are one edit away from a word
        some chunk contains: probably misspelt (a rewrite may fix them)."""
        ...


RerankGrade = Literal["answers", "partial", "related", "no"]


@dataclass(frozen=True)
class Reranked:
    """A reranker's judgement of one candidate: a score (higher is better) and, from a model
    reranker, a grade. A score-only reranker leaves ``grade`` as ``None``."""

    chunk_id: str
    score: float
    grade: RerankGrade | None = None


class Reranker(Protocol):
    @property
    def grades(self) -> bool:
        """True when this reranker grades (a model); False when it only scores (local)."""
        ...

    async def rerank(self, query: str, chunks: Sequence[Chunk]) -> list[Reranked]:
        """One judgement per chunk, same order."""
        ...


# --- the sandbox (issue 8): a headless browser that checks generated demos and diagrams -----


@dataclass(frozen=True)
class PageCheck:
    """What loading a generated HTML demo, offline, showed.

    ``blocked`` lists the requests the page tried to make (every one is refused: demos run
    with the network off); ``rendered`` is False when nothing visible was on the page;
    ``timed_out`` when the page did not finish loading (an endless loop, say).
    """

    console_errors: tuple[str, ...] = ()
    page_errors: tuple[str, ...] = ()
    blocked: tuple[str, ...] = ()
    rendered: bool = True
    timed_out: bool = False


@dataclass(frozen=True)
class ImageRender:
    """An SVG drawn to pixels: its size, how many distinct colours (capped), and ``ink`` —
    the share of pixels that differ from the most common colour (0.0 = one flat colour)."""

    width: int
    height: int
    colours: int
    ink: float


class Sandbox(Protocol):
    """Raises ``core.errors.SandboxError`` when the browser cannot run at all."""

    async def check_page(self, html: str) -> PageCheck: ...

    async def render_svg(self, svg: str) -> ImageRender: ...
