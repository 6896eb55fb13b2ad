"""Lectures and PDFs as topics on the map: a lecture is one topic whose key moments are its
sections, a PDF one topic whose pages are, so Quiz me on them and citations from them record
evidence on something the learner can see (issue 30: "lectures go nowhere").

Each indexed transcript or PDF is written as a note — its title, a heading per key moment
("12:34 · Mark and sweep") or per page, the passages' own words under it — and merged by the
model-free notes path under the SOURCE's id, so the topic's evidence cites the lecture itself
and the passages hold its quotes. Coverage makes it idempotent: an unchanged lecture merges
nothing, a changed one re-merges only the moments whose words changed. Its sections now are
recorded on its source (``Source.sections``), so the outline drops a moment or page it lost.

The text is the index's chunks (no second read of the file). Transcript words are not
Markdown: headings are cut to one line and a line that would parse as markup is escaped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from studyhall.core.contracts.search import Chunk
from studyhall.core.library.extraction.merge_base import TrackedGraph
from studyhall.core.library.extraction.pipeline import ExtractionPipeline
from studyhall.core.library.extraction.source_kinds import notes_by_structure
from studyhall.core.library.extraction.structural_extractor import StructuralExtractor
from studyhall.core.library.extraction.tally import MergeTally
from studyhall.core.library.graph.snapshot import GraphSnapshot
from studyhall.core.library.imports.phases import section_views
from studyhall.core.library.sources.key_moments import Cue, key_moments
from studyhall.core.library.sources.notes import NoteDoc, parse_note
from studyhall.core.library.sources.notes.views import vault_run_source
from studyhall.core.library.sources.source_ids import path_source_id
from studyhall.core.ports.search import SearchIndex
from studyhall.core.ports.storage import GraphStore, SourceStore
from studyhall.core.ports.system import Clock, Ids, OffLoop

TOPIC_KINDS = ("transcript", "pdf")
HEADING_CHARS = 70
CHUNK_TOKENS = 100_000  # one whole lecture per batch (the structural extractor's unit)
_MARKUP_START = re.compile(r"^\s*(?:#|>|[-*+]\s|\d+[.)]\s|```|~~~|\||---|===)")


@dataclass(frozen=True)
class LectureFile:
    """An indexed transcript or PDF of an import: its kind, root-relative path and root name."""

    kind: str
    path: str
    root_name: str

    @property
    def source_id(self) -> str:
        return path_source_id(self.kind, self.root_name, self.path)


def _clock(seconds: float) -> str:
    whole = int(seconds)
    h, m, s = whole // 3600, whole % 3600 // 60, whole % 60
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _one_line(text: str, limit: int = HEADING_CHARS) -> str:
    line = " ".join(text.replace("#", " ").replace("`", "'").replace("[[", "[ [").split())
    if len(line) <= limit:
        return line
    cut = line[:limit].rsplit(" ", 1)[0]
    return f"{cut}…"


def _body(text: str) -> str:
    """Passage words as plain paragraphs: a line that would parse as markup gets a backslash."""
    lines = []
    for line in text.replace("[[", "[ [").splitlines():
        lines.append("\\" + line.lstrip() if _MARKUP_START.match(line) else line)
    return "\n".join(lines)


def _sections(kind: str, chunks: Sequence[Chunk]) -> list[tuple[str, list[Chunk]]]:
    if kind == "pdf":
        pages: dict[int, list[Chunk]] = {}
        for chunk in chunks:
            pages.setdefault(chunk.page or 1, []).append(chunk)
        return [(f"Page {page}", part) for page, part in sorted(pages.items())]
    cues = [Cue(c.start or 0.0, c.end or c.start or 0.0, c.text) for c in chunks]
    moments = key_moments(cues) if cues else []
    if not moments:
        return [("Transcript", list(chunks))] if chunks else []
    out: list[tuple[str, list[Chunk]]] = []
    for i, moment in enumerate(moments):
        last = i == len(moments) - 1
        part = [c for c in chunks if (c.start or 0.0) >= moment.start
                and (last or (c.start or 0.0) < moments[i + 1].start)]
        if i == 0:  # what came before the first cut belongs to the first moment
            part = [c for c in chunks if (c.start or 0.0) < moment.start] + part
        if part:
            out.append((f"{_clock(moment.start)} · {_one_line(moment.title)}", part))
    return out


def lecture_note(lecture: LectureFile, chunks: Sequence[Chunk]) -> NoteDoc | None:
    """The lecture (or PDF) as a note: its title, a heading per moment or page, its words."""
    if not chunks:
        return None
    title = _one_line(chunks[0].title or lecture.path.rsplit("/", 1)[-1], 120)
    parts = ["---", "title: lecture", "---", ""]
    for heading, part in _sections(lecture.kind, chunks):
        parts += [f"## {heading}", ""]
        parts += [_body(c.text) + "\n" for c in part]
    return parse_note(f"{lecture.path}.md", "\n".join(parts), {"title": title})


class LectureTopics:
    """Merges the imported lectures' and PDFs' topics through the one graph writer's pipeline."""

    def __init__(self, *, index: SearchIndex, graph_store: GraphStore, sources: SourceStore,
                 snapshot: Callable[[], GraphSnapshot], clock: Clock, ids: Ids,
                 off_loop: OffLoop) -> None:
        self._index = index
        self._graph = graph_store
        self._sources = sources
        self._snapshot = snapshot
        self._clock = clock
        self._ids = ids
        self._off = off_loop

    async def merge(self, lectures: Sequence[LectureFile]) -> MergeTally:
        """Each lecture's uncovered moments merged; returns what was written."""
        tally = MergeTally()
        wanted = [lec for lec in lectures if lec.kind in TOPIC_KINDS]
        if not wanted:
            return tally
        snapshot = await self._off(self._snapshot)
        pipeline = ExtractionPipeline(
            store=self._graph, base=TrackedGraph(self._graph, snapshot), clock=self._clock,
            ids=self._ids, group_source=vault_run_source(f"{wanted[0].root_name}/@lectures"),
            off_loop=self._off)
        structural = StructuralExtractor(off_loop=self._off)
        kind = notes_by_structure(structural, self._off)
        at = self._clock.now()
        sections: dict[str, tuple[str, ...]] = {}
        try:
            for lecture in wanted:
                chunks = await self._off(self._index.chunks, lecture.source_id)
                doc = await self._off(lecture_note, lecture, chunks)
                if doc is None:
                    continue
                sections[lecture.source_id] = tuple(section.anchor for section in doc.sections)
                size = sum(len(c.text) for c in chunks)
                views = await section_views(doc, lecture.source_id, size, at, self._off)
                pending = pipeline.uncovered(views)
                if not pending:
                    continue
                structural.add_note(lecture.source_id, doc)
                try:
                    for batch in kind.batching(pending, CHUNK_TOKENS):
                        await pipeline.run_batch(batch, kind)
                finally:
                    structural.forget(lecture.source_id)
                for plan in pipeline.commit_group():  # one lecture's plan at a time
                    tally.add(plan)
        except BaseException:
            pipeline.discard_group()  # planned but unwritten: the next import redoes it
            raise
        await self._off(self._record_sections, sections)
        return tally

    def _record_sections(self, sections: dict[str, tuple[str, ...]]) -> None:
        """Each lecture's sections now on its record, written only where they changed."""
        changed = []
        for source_id, now in sections.items():
            record = self._sources.get(source_id)
            if record is not None and record.sections != now:
                changed.append(record.model_copy(update={"sections": now}))
        if changed:
            self._sources.save_many(changed)
