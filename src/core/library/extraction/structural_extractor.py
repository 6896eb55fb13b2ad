"""The model-free extractor: a note's topics, with its sentences as their evidence.

It sits behind the same ``Extractor`` port as the model-backed one and its findings go through
the same auditor → merger, so every quote is still checked verbatim. Concepts, not sentences,
are nodes:
- the note's title is its topic node, each heading a sub-topic ("Title: Heading") with a
  ``supports`` edge to its parent section's topic;
- every sentence of a paragraph, list item or quote with at least three words (not counting
  a sentence that is nothing but links) is an evidence quote ON its section's topic — shown in
  the dock, searched through the passages index, citable — never a node of its own.
A finding's key is the id its node will have (ids come from the normalized text), so edges can
name nodes of this batch and nodes merged by earlier runs alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from studyhall.core.library.extraction.batching import Batch
from studyhall.core.library.extraction.findings import (
    EdgeFinding,
    EvidenceClaim,
    Extraction,
    ExtractorOutput,
    PropositionFinding,
)
from studyhall.core.library.extraction.merger import node_id_for
from studyhall.core.library.sources.notes.document import Block, NoteDoc, Section
from studyhall.core.library.sources.notes.prose import clip, plain, sentences, word_count
from studyhall.core.library.sources.notes.views import section_message_id, title_line

MIN_WORDS = 3
_LINKS = re.compile(r"!?\[\[[^\]]*\]\]|!?\[[^\]]*\]\([^)]*\)")
_PROSE = ("paragraph", "list_item", "quote")


def root_text(doc: NoteDoc) -> str:
    return clip(plain(doc.title) or doc.title)


def section_text(doc: NoteDoc, section: Section) -> str:
    """The topic node of a section: the root for the preamble and for an H1 that repeats the
    title; "Title: Heading" otherwise (a bare "Summary" would merge across every note)."""
    return _section_text(doc, section, root_text(doc))


def _section_text(doc: NoteDoc, section: Section, root: str) -> str:
    if section.index == 0:
        return root
    heading = plain(section.heading or "") or (section.heading or "")
    if section.level == 1 and heading.casefold() == root.casefold():
        return root
    return clip(f"{root}: {heading}")


def section_node(doc: NoteDoc, section: Section) -> str:
    return node_id_for(section_text(doc, section))


def heading_quote(doc: NoteDoc, section: Section) -> str:
    """The heading exactly as written (a setext heading spans its underline too)."""
    for block in doc.blocks:
        if block.kind == "heading" and block.start == section.start:
            return " ".join(doc.lines[n].strip() for n in range(block.start, block.end))
    return doc.lines[section.start].strip()


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
    edges: dict[tuple[str, str, str], None] = field(default_factory=dict)

    def node(self, text: str, message_id: str, quotes: Iterable[str]) -> str:
        key = node_id_for(text)
        self.texts.setdefault(key, text)
        claims = self.claims.setdefault(key, {})
        for quote in quotes:
            claims.setdefault(EvidenceClaim(message_id=message_id, quote=quote))
        return key

    def edge(self, source: str, target: str, kind: str) -> None:
        if source != target:
            self.edges.setdefault((source, target, kind))

    def findings(self) -> tuple[PropositionFinding, ...]:
        return tuple(PropositionFinding(key=key, text=text, evidence=tuple(self.claims[key]))
                     for key, text in self.texts.items())


class StructuralExtractor:
    """Extracts notes registered with ``add_note`` (the importer parses each note once)."""

    def __init__(self) -> None:
        self._docs: dict[str, NoteDoc] = {}

    def add_note(self, source_id: str, doc: NoteDoc) -> None:
        self._docs[source_id] = doc

    def forget(self, source_id: str) -> None:
        self._docs.pop(source_id, None)

    def doc(self, source_id: str) -> NoteDoc | None:
        return self._docs.get(source_id)

    async def extract(self, batch: Batch) -> Extraction:
        return Extraction(extract_structure(self._docs, batch))


def extract_structure(docs: Mapping[str, NoteDoc], batch: Batch) -> ExtractorOutput:
    doc = docs.get(batch.source_id)
    if doc is None:
        raise ValueError(f"no parsed note registered for source {batch.source_id}")
    by_message = {section_message_id(batch.source_id, s): s for s in doc.sections}
    out = _Out()
    topics = _Topics(doc)
    for view in batch.views:
        section = by_message.get(view.message_id)
        if section is not None:
            _section(doc, section, view.message_id, out, topics)
    propositions = out.findings()
    edges = tuple(
        EdgeFinding.model_validate({"from": s, "to": t, "kind": k}) for s, t, k in out.edges
    )
    return ExtractorOutput(propositions=propositions, edges=edges)


class _Topics:
    """One note's section topic texts, each worked out once (a parent's is asked for again by
    every sub-section, and the title by every section)."""

    def __init__(self, doc: NoteDoc) -> None:
        self._doc = doc
        self._root = root_text(doc)
        self._texts: dict[int, str] = {}

    def text(self, section: Section) -> str:
        text = self._texts.get(section.index)
        if text is None:
            text = self._texts[section.index] = _section_text(self._doc, section, self._root)
        return text


def _section(doc: NoteDoc, section: Section, message_id: str, out: _Out, topics: _Topics) -> None:
    # Quoted once per sentence, named once per section: the plain-text rules are the cost.
    heading = title_line(doc) if section.index == 0 else heading_quote(doc, section)
    statements = [s.quote for s in section_statements(doc, section)]
    topic = out.node(topics.text(section), message_id, [heading, *statements])
    if section.index != 0:
        parent = doc.sections[section.parent or 0]
        out.edge(topic, node_id_for(topics.text(parent)), "supports")


def section_statements(doc: NoteDoc, section: Section) -> list[Statement]:
    """The statements of a section's own prose (not its sub-sections'), in note order."""
    return [
        statement
        for block in doc.blocks
        if section.start <= block.start < section.end and block.kind in _PROSE
        for statement in block_statements(block)
    ]
