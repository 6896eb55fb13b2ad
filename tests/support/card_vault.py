"""The real-shaped vault the model-free deck is measured on, imported with no model: the scale
vault of ``bench/import.py`` (``real_vault``: long templated notes), the help vault (API
headings, callouts, aliases) and a study vault (definitions, term lists) in one folder — and
the deck's figures: duplicate fronts, self-answering cards, stop-word blanks, raw markup."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from pathlib import Path
from typing import NamedTuple

from studyhall.adapters.store import JsonlGraphStore
from studyhall.core.library.graph.snapshot import graph_snapshot
from studyhall.core.library.graph.view import GraphSnapshot
from studyhall.core.library.learner.deck import Deck, answers_own_subject, normal
from studyhall.core.library.learner.key_terms import STOP, is_content_word, words
from studyhall.core.library.learner.prompts import BLANK

from tests.support.help_vault import write_help_vault
from tests.support.notes import importer
from tests.support.real_vault import make_real_vault
from tests.support.study_vault import write_study_vault

_RAW_MARKUP = re.compile(r"\[\[|\]\]|!\[|\*\*|^\s*[-*>#]\s|\[!\w+\]")


def import_card_vault(root: Path, scale_notes: int = 173) -> GraphSnapshot:
    vault = root / "vault"
    make_real_vault(vault / "Scale", scale_notes)
    write_help_vault(vault / "Help")
    write_study_vault(vault / "Study")
    asyncio.run(importer(root / "data").run(str(vault), embed=False))
    return graph_snapshot(JsonlGraphStore(root / "data" / "graph"))


class DeckFigures(NamedTuple):
    topics: int
    carded: int  # topics with at least one card
    cards: int
    duplicate_fronts: int  # cards whose front another card also has
    self_answering: int
    stop_blanks: int  # clozes whose blank is a stop or function word
    raw_markup: int  # cards with a raw wikilink, embed, emphasis or list marker left

    @property
    def duplicate_share(self) -> float:
        return self.duplicate_fronts / self.cards if self.cards else 0.0


def deck_figures(deck: Deck) -> DeckFigures:
    cards = deck.all()
    fronts = Counter(normal(c.prompt.prompt) for c in cards)
    stop = sum(1 for c in cards if c.prompt.kind == "cloze" and (
        not is_content_word(c.prompt.answer.split()[0]) if " " not in c.prompt.answer
        else all(w.lower() in STOP for w in words(c.prompt.answer))))
    raw = sum(1 for c in cards if any(_RAW_MARKUP.search(text.replace(BLANK, " ")) for text in (
        c.prompt.prompt, c.prompt.answer, c.prompt.evidence or "")))
    return DeckFigures(
        topics=len(deck.topics), carded=sum(1 for t in deck.topics if deck.cards(t)),
        cards=len(cards), duplicate_fronts=sum(n for n in fronts.values() if n > 1),
        self_answering=sum(1 for c in cards if answers_own_subject(c)),
        stop_blanks=stop, raw_markup=raw)
