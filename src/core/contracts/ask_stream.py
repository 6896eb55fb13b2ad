"""The Ask stream (``POST /api/ask``, ``studyhall ask``), one typed event per SSE name:
``sources`` first, then ``navigate`` / ``suggest`` (moments to jump to), ``text-delta``, and
``finish`` — or ``error`` (``StreamError``) when the model fails mid-answer."""

from __future__ import annotations

from typing import ClassVar, Literal, Self

from pydantic import BaseModel, ConfigDict
from studyhall.core.contracts.material import MaterialKind
from studyhall.core.contracts.search import Chunk
from studyhall.core.contracts.stream import StreamError, WireEvent

# How far the learner's material answers the question (``core.library.retrieval.match_cases``).
AskCase = Literal["MATCH", "RELATED", "NO_MATCH", "IN_SOURCE", "IN_MOMENT"]


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)


class AskPassage(_Part):
    """A numbered passage: one the answer may cite (``sources``), or one to read instead of an
    answer (``finish`` with ``answered: false``). The window deep-links with ``link``."""

    n: int
    chunk_id: str
    source_id: str
    path: str
    link: str
    anchor: str
    kind: MaterialKind
    title: str
    heading: str | None
    start: float | None
    page: int | None
    text: str  # the passage, cut at a word near 600 characters
    # With no written answer: the passage's sentence nearest the question, to read first (a
    # pointer, not a claim that it answers). Sent only when one shares enough of its words.
    closest: str | None = None
    # In a lecture: the second the cue holding ``closest`` starts at, where the player opens
    # when the window shows the passage from that sentence on. Sent only when known.
    closest_start: float | None = None


class AskMoment(_Part):
    """A moment or page of a source to jump to."""

    link: str
    source_id: str
    path: str
    anchor: str
    start: float | None
    page: int | None
    title: str
    heading: str | None

    @classmethod
    def of(cls, chunk: Chunk) -> Self:
        return cls(link=chunk.link, source_id=chunk.source_id, path=chunk.path,
                   anchor=chunk.anchor, start=chunk.start, page=chunk.page, title=chunk.title,
                   heading=chunk.heading)


class AskNotice(_Part):
    """How the search ran degraded, and what to do: ``reindex`` (vectors of another embedding
    model: re-import) or ``grader`` (the reranker model failed: the scores decided)."""

    kind: str
    message: str


class AskSources(WireEvent):
    """First: the coverage case and the numbered passages the answer may cite."""

    name: ClassVar[str] = "sources"

    case: AskCase
    graded: bool  # a model graded the passages (else the calibrated scores decided)
    # NO_MATCH by the scores alone, yet the nearest passages are close to the question: only a
    # model could tell whether they answer it. Sent only when true.
    unconfirmed: bool = False
    sources: list[AskPassage]
    rewritten: str | None  # the standalone query a follow-up was also searched as
    notices: list[AskNotice]


class AskNavigate(AskMoment, WireEvent):
    """The learner asked to be taken somewhere ("take me to …"): where."""

    name: ClassVar[str] = "navigate"


class AskSuggest(WireEvent):
    """At most two moments or pages worth jumping to."""

    name: ClassVar[str] = "suggest"

    moments: list[AskMoment]


class AskTextDelta(WireEvent):
    """The next words of the answer (``[n]`` markers checked against ``sources``)."""

    name: ClassVar[str] = "text-delta"

    text: str


class AskFinish(WireEvent):
    """The end: answered (``cited``, ``removed_markers``), or not (``reason``, and the
    best-ranked ``passages`` to read instead); ``ranked`` is every link found, best first."""

    name: ClassVar[str] = "finish"

    case: AskCase
    ranked: list[str]
    answered: bool
    cited: list[int] | None = None  # source numbers the answer used
    removed_markers: int | None = None  # markers that named no source, removed
    reason: str | None = None  # why there is no answer (no model, not requested)
    passages: list[AskPassage] | None = None


AskEvent = AskSources | AskNavigate | AskSuggest | AskTextDelta | AskFinish | StreamError

# Every event the stream may send, in the order they may come.
ASK_STREAM: tuple[type[WireEvent], ...] = (
    AskSources, AskNavigate, AskSuggest, AskTextDelta, AskFinish, StreamError)
