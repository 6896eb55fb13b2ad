"""The model-free extractor: a note's topic, with its sections' sentences as its evidence.

It sits behind the same ``Extractor`` port as the model-backed one and its findings go through
the same auditor → merger, so every quote is still checked verbatim. Concepts, not sentences,
are nodes, and the map's unit is the note:
- the note's title is its ONE topic node; its headings are its sections, not nodes — each
  heading is quoted on the topic from its section's view, so the dock can list the outline and
  deep-link it;
- every sentence of a paragraph, list item or quote with at least three words (not counting
  a sentence that is nothing but links) is an evidence quote ON the note's topic, cited with
  the view of the section it came from — shown in the dock, searched through the passages
  index, citable — never a node of its own.
(An earlier import made each heading a "Title: Heading" node; ``heading_text`` names those so
``topic_conversion`` can fold them into the note's topic.)
A finding's key is the id its node will have (ids come from the normalized text), so edges can
name nodes of this batch and nodes merged by earlier runs alike.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from studyhall.core.library.extraction.batching import Batch
from studyhall.core.library.extraction.findings import (
    EvidenceClaim,
    Extraction,
    ExtractorOutput,
    PropositionFinding,
)
from studyhall.core.library.extraction.merger import node_id_for
from studyhall.core.library.sources.notes.document import Block, NoteDoc, Section
from studyhall.core.library.sources.notes.prose import clip, plain, sentences, word_count
from studyhall.core.library.sources.notes.views import section_message_id, title_line
from studyhall.core.ports.system import OffLoop, in_place

MIN_WORDS = 3
_LINKS = re.compile(r"!?\[\[[^\]]*\]\]|!?\[[^\]]*\]\([^)]*\)")
_PROSE = ("paragraph", "list_item", "quote")


def root_text(doc: NoteDoc) -> str:
    return clip(plain(doc.title) or doc.title)


def section_text(doc: NoteDoc, section: Section) -> str:
    """The topic node a section's evidence sits on: the note's, whatever the section."""
    return root_text(doc)


def heading_text(doc: NoteDoc, section: Section) -> str:
    """The node an earlier import made of a section: the root for the preamble and for an H1
    that repeats the title; "Title: Heading" otherwise."""
    return _heading_text(doc, section, root_text(doc))


def _heading_text(doc: NoteDoc, section: Section, root: str) -> str:
    if section.index == 0:
        return root
    heading = plain(section.heading or "") or (section.heading or "")
    if section.level == 1 and heading.casefold() == root.casefold():
        return root
    return clip(f"{root}: {heading}")


def section_node(doc: NoteDoc, section: Section) -> str:
    return node_id_for(section_text(doc, section))


def heading_node(doc: NoteDoc, section: Section) -> str:
    return node_id_for(heading_text(doc, section))


@dataclass(frozen=True)
class Statement:
    text: str
    quote: str
    block: Block


def block_statements(block: Block) -> list[Statement]:
    """Sentences of one prose block: a sentence may span lines only where nothing but
    whitespace separates them in the file (so the quote stays verbatim)."""
    segments: list[list[str]] = []
    for _line, content, joins in block.lines:
        if joins and segments:
            segments[-1].append(content)
        else:
            segments.append([content])
    found: list[Statement] = []
    for segment in segments:
        for raw in sentences(" ".join(part for part in segment if part)):
            text = clip(plain(raw))
            if word_count(text) < MIN_WORDS:
                continue
            # A bare link ("- [[Other note]]") says nothing itself: its link becomes an edge.
            # (Without a link the words just counted are the ones that would be counted again.)
            if not _LINKS.search(raw) or word_count(plain(_LINKS.sub(" ", raw))) >= 1:
                found.append(Statement(text, raw, block))
    return found


@dataclass
class _Out:
    texts: dict[str, str] = field(default_factory=dict)  # node key -> text
    claims: dict[str, dict[EvidenceClaim, None]] = field(default_factory=dict)  # in order

    def node(self, text: str, message_id: str, quotes: Iterable[str]) -> str:
        key = node_id_for(text)
        self.texts.setdefault(key, text)
        claims = self.claims.setdefault(key, {})
        for quote in quotes:
            claims.setdefault(EvidenceClaim(message_id=message_id, quote=quote))
        return key

    def findings(self) -> tuple[PropositionFinding, ...]:
        return tuple(PropositionFinding(key=key, text=text, evidence=tuple(self.claims[key]))
                     for key, text in self.texts.items())


class SectionIndex:
    """One note's blocks indexed by section, built once (linear in the note): asking every
    section for its heading and prose by scanning every block was quadratic — a note with 20k
    headings held the event loop for minutes."""

    def __init__(self, doc: NoteDoc) -> None:
        self._doc = doc
        self._headings: dict[int, Block] = {}  # start line -> the first heading block there
        for block in doc.blocks:
            if block.kind == "heading":
                self._headings.setdefault(block.start, block)
        # Block positions sorted by start line (ties in note order): a section's blocks are
        # one contiguous run of them, found by bisection.
        self._order = sorted(range(len(doc.blocks)), key=lambda i: doc.blocks[i].start)
        self._starts = [doc.blocks[i].start for i in self._order]

    def heading_quote(self, section: Section) -> str:
        """The heading exactly as written (a setext heading spans its underline too)."""
        doc = self._doc
        block = self._headings.get(section.start)
        if block is None:
            return doc.lines[section.start].strip()
        return " ".join(doc.lines[n].strip() for n in range(block.start, block.end))

    def statements(self, section: Section) -> list[Statement]:
        """The statements of a section's own prose (not its sub-sections'), in note order."""
        low = bisect_left(self._starts, section.start)
        high = bisect_left(self._starts, section.end, lo=low)
        blocks = self._doc.blocks
        return [
            statement
            for i in sorted(self._order[low:high])
            if blocks[i].kind in _PROSE
            for statement in block_statements(blocks[i])
        ]


class StructuralExtractor:
    """Extracts notes registered with ``add_note`` (the importer parses each note once); a
    heavy batch (a huge note) is extracted through ``off_loop`` (a worker thread in the app)."""

    def __init__(self, off_loop: OffLoop = in_place) -> None:
        self._docs: dict[str, NoteDoc] = {}
        # Built on a note's first batch and kept for the rest (with a model, a note of many
        # sections is many batches).
        self._indexes: dict[str, SectionIndex] = {}
        self._off_loop = off_loop

    def add_note(self, source_id: str, doc: NoteDoc) -> None:
        self._docs[source_id] = doc
        self._indexes.pop(source_id, None)

    def forget(self, source_id: str) -> None:
        self._docs.pop(source_id, None)
        self._indexes.pop(source_id, None)

    def doc(self, source_id: str) -> NoteDoc | None:
        return self._docs.get(source_id)

    async def extract(self, batch: Batch) -> Extraction:
        doc = self._docs.get(batch.source_id)
        if doc is None:
            return Extraction(extract_structure({}, batch))  # refused, with the reason
        known = self._indexes.get(batch.source_id)
        if batch.heavy:
            output, index = await self._off_loop(_extract, doc, batch, known)
        else:
            output, index = _extract(doc, batch, known)
        if self._docs.get(batch.source_id) is doc:  # not forgotten (or replaced) meanwhile
            self._indexes[batch.source_id] = index
        return Extraction(output)


def _extract(
    doc: NoteDoc, batch: Batch, index: SectionIndex | None
) -> tuple[ExtractorOutput, SectionIndex]:
    built = index or SectionIndex(doc)
    return extract_structure({batch.source_id: doc}, batch, built), built


def extract_structure(
    docs: Mapping[str, NoteDoc], batch: Batch, index: SectionIndex | None = None
) -> ExtractorOutput:
    """The batch's sections as evidence on the note's topic; ``index``: the note's, when
    already built."""
    doc = docs.get(batch.source_id)
    if doc is None:
        raise ValueError(f"no parsed note registered for source {batch.source_id}")
    by_message = {section_message_id(batch.source_id, s): s for s in doc.sections}
    out = _Out()
    topic = root_text(doc)  # worked out once: the plain-text rules are the cost
    index = index or SectionIndex(doc)
    for view in batch.views:
        section = by_message.get(view.message_id)
        if section is not None:
            _section(doc, index, section, view.message_id, out, topic)
    # No edges: a note's structure is its outline, not the map's; its links make the edges.
    return ExtractorOutput(propositions=out.findings())


def _section(doc: NoteDoc, index: SectionIndex, section: Section, message_id: str, out: _Out,
             topic: str) -> None:
    # The heading first: the dock's outline reads a section's heading from its first quote.
    heading = title_line(doc) if section.index == 0 else index.heading_quote(section)
    statements = [s.quote for s in index.statements(section)]
    out.node(topic, message_id, [heading, *statements])
