"""Anki notes into the graph, model-free, through the same pipeline as notes (audit → merge).

Each deck is a source. Each level of its ``::`` nesting is a topic node ("Languages: Spanish"
under "Languages", a ``supports`` edge between them), quoted from a view holding the deck's
name; each note is a proposition — its statement (a basic card's "front — back", a cloze filled
in) — with its front and back quoted from the note's own view, and a ``supports`` edge to its
deck's topic. A view's message id comes from the note's Anki GUID, so a re-import of the same
deck is covered and extracts nothing; an edited note is a new view, and a new statement. A
note with any non-empty field is kept, however short ("あ" → "a": quoted as its whole view).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from studyhall.core.contracts.anki_deck import DECK_SEPARATOR, AnkiDeckFile, AnkiNote, deck_levels
from studyhall.core.library.extraction.batching import Batch, batches_of
from studyhall.core.library.extraction.coverage import View, make_view
from studyhall.core.library.extraction.evidence import MIN_QUOTE_CHARS, normalize_ws
from studyhall.core.library.extraction.findings import (
    EdgeFinding,
    EvidenceClaim,
    Extraction,
    ExtractorOutput,
    KeepAllAuditor,
    PropositionFinding,
)
from studyhall.core.library.extraction.merger import node_id_for
from studyhall.core.library.extraction.pipeline import SourceKind

ANKI_LABEL = "anki"
VIEWS_PER_BATCH = 500  # notes per merge batch (one group run holds them all)


def deck_source_id(deck: str) -> str:
    """A deck's source: from its name alone, so the same deck exported twice is one source."""
    return "anki_" + hashlib.sha256(f"anki/{deck}".encode()).hexdigest()[:20]


def package_source_id(name: str) -> str:
    """What the group run of one package import names as its source."""
    return "ankipkg_" + hashlib.sha256(f"anki/@package/{name}".encode()).hexdigest()[:20]


def topic_text(level: str) -> str:
    return ": ".join(level.split(DECK_SEPARATOR))


def note_node(note: AnkiNote) -> str:
    """The node a note's proposition lands on (ids come from the text)."""
    return node_id_for(note.statement)


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines() if line.strip()]


@dataclass
class DeckViews:
    """One deck's views: its levels' names first, then one per note."""

    source_id: str
    deck: str
    views: list[View] = field(default_factory=list)
    levels: dict[str, str] = field(default_factory=dict)  # message id → deck level
    notes: dict[str, AnkiNote] = field(default_factory=dict)  # message id → note


def deck_views(package: AnkiDeckFile, at: datetime) -> list[DeckViews]:
    """Every deck of the package with its views, decks in name order, notes in package order."""
    out: dict[str, DeckViews] = {}
    for note in package.notes:
        deck = out.get(note.deck)
        if deck is None:
            source = deck_source_id(note.deck)
            deck = out[note.deck] = DeckViews(source, note.deck)
            for n, level in enumerate(deck_levels(note.deck)):
                message_id = f"{source}#deck/{n}"
                deck.levels[message_id] = level
                deck.views.append(make_view(source, message_id, ANKI_LABEL, [level], at))
        message_id = f"{deck.source_id}#note/{note.guid}"
        if message_id in deck.notes:
            continue  # a GUID twice in one collection: the first note stands
        deck.notes[message_id] = note
        lines = [*_lines(note.front), *_lines(note.back)]
        deck.views.append(make_view(deck.source_id, message_id, ANKI_LABEL, lines, at))
    return [out[name] for name in sorted(out)]


class AnkiExtractor:
    """Extracts the decks registered with ``add_deck``."""

    def __init__(self) -> None:
        self._decks: dict[str, DeckViews] = {}

    def add_deck(self, deck: DeckViews) -> None:
        self._decks[deck.source_id] = deck

    async def extract(self, batch: Batch) -> Extraction:
        deck = self._decks.get(batch.source_id)
        if deck is None:
            raise ValueError(f"no Anki deck registered for source {batch.source_id}")
        return Extraction(extract_deck(deck, batch.views))


def extract_deck(deck: DeckViews, views: Sequence[View]) -> ExtractorOutput:
    texts: dict[str, str] = {}
    claims: dict[str, dict[EvidenceClaim, None]] = {}
    edges: dict[tuple[str, str], None] = {}

    def node(text: str, message_id: str, quotes: Sequence[str]) -> str:
        key = node_id_for(text)
        texts.setdefault(key, text)
        found = claims.setdefault(key, {})
        for quote in quotes:
            found.setdefault(EvidenceClaim(message_id=message_id, quote=quote))
        return key

    levels = deck_levels(deck.deck)
    own_topic = node_id_for(topic_text(levels[-1]))
    for view in views:
        level = deck.levels.get(view.message_id)
        if level is not None:
            topic = node(topic_text(level), view.message_id, [level])
            depth = levels.index(level)
            if depth:
                edges.setdefault((topic, node_id_for(topic_text(levels[depth - 1]))))
            continue
        note = deck.notes.get(view.message_id)
        if note is None:
            continue
        quotes = [q for q in (_first(note.front), _first(note.back))
                  if q and len(normalize_ws(q)) >= MIN_QUOTE_CHARS]
        # A short note ("あ" → "a") is quoted whole: its view's lines together (at least "x y").
        key = node(note.statement, view.message_id,
                   quotes or [normalize_ws(" ".join(view.lines))])
        edges.setdefault((key, own_topic))
    return ExtractorOutput(
        propositions=tuple(PropositionFinding(key=k, text=t, evidence=tuple(claims[k]))
                           for k, t in texts.items()),
        edges=tuple(EdgeFinding.model_validate({"from": s, "to": t, "kind": "supports"})
                    for s, t in edges if s != t))


def _first(text: str) -> str | None:
    lines = _lines(text)
    return lines[0] if lines else None


def anki_decks(extractor: AnkiExtractor) -> SourceKind:
    """The pipeline's kind for Anki decks: fixed-size batches, every finding kept for the
    merger's checks, one group run for the whole package."""

    def fixed(views: Sequence[View], _budget: int) -> list[Batch]:
        return batches_of(views, VIEWS_PER_BATCH)

    return SourceKind("anki", fixed, extractor, KeepAllAuditor(), grouped=True)
