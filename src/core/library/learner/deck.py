"""The model-free deck: a card only where a good one exists, unique across the deck.

For each statement of a topic (``statements``), in its note's order, at most one card:
- a definition ("X is …", "X: …") is recalled by its subject: "Recall what you know about “X”.",
  the statement revealed;
- any other statement holding a *key term* of its topic (``key_terms``: TF-IDF over the vault,
  never a stop or function word, never a word of the topic's own title) is a cloze with every
  occurrence of that term blanked.
A card is dropped when its answer would only repeat its prompt or its subject, and every card
whose prompt another topic's card also asks is dropped (a prompt with two answers tests
nothing). A topic left without a card is studied through Quiz me instead.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from studyhall.core.library.graph.view import SnapshotNode
from studyhall.core.library.learner.key_terms import KeyTerms, fold, is_content_word, words
from studyhall.core.library.learner.prompts import BLANK, Prompt
from studyhall.core.library.learner.statements import (
    LOCATOR,
    Statement,
    definition,
    is_topic,
    statements,
)

MOST_PER_TOPIC = 6  # a note's best cards; more would make one note most of a day's reviews
KEY_TERMS = 8  # how many of a topic's ranked terms may be blanked
MIN_CONTEXT = 2  # content words a cloze keeps around its blank
_POINTS_BACK = re.compile(r"^(?:it|this|that|these|those|they|he|she|its|their)\b", re.IGNORECASE)


class DeckCard(NamedTuple):
    node_id: str
    prompt: Prompt
    subject: str  # what the card is about: the defined term, or the topic's title
    key: str  # the card's identity within its node: its statement, normalised


def normal(text: str) -> str:
    return " ".join(w.casefold() for w in words(text))


def answers_own_subject(card: DeckCard) -> bool:
    """The card's answer says nothing its prompt or subject does not already say."""
    answer = normal(card.prompt.answer)
    return not answer or answer == normal(card.subject) or answer in normal(card.prompt.prompt)


def _title_words(node: SnapshotNode) -> set[str]:
    return {fold(w) for w in words(node.text)}


def _cloze(statement: Statement, terms: dict[str, float], banned: set[str],
           titles: Mapping[str, list[str]]) -> Prompt | None:
    if _POINTS_BACK.match(statement.text):
        return None  # "It keeps a list …": out of its paragraph, nobody can tell what "it" is
    # "point 41 of the lecture", "Page two": a place in the material, never the blank
    banned = banned | {fold(m.group("word")) for m in LOCATOR.finditer(statement.text)}
    best: tuple[float, str] | None = None
    for word in words(statement.text):
        term = fold(word)
        if term in banned or term not in terms or not is_content_word(word):
            continue
        if best is None or terms[term] > best[0]:
            best = (terms[term], word)
    if best is None:
        return None
    term = best[1]
    # A word of another note's name ("embed" in "Embed files") is blanked as that whole name.
    low = statement.text.casefold()
    for title in titles.get(fold(term), ()):
        if title.casefold() in low:
            at = low.index(title.casefold())
            term = statement.text[at:at + len(title)]
            break
    stem = re.escape(term if " " in term else fold(term))
    pattern = re.compile(rf"(?<![\w]){stem}(?:e?s)?(?![\w])", re.IGNORECASE)
    blanked = pattern.sub(BLANK, statement.text)
    if BLANK not in blanked or sum(map(is_content_word, words(blanked))) < MIN_CONTEXT:
        return None  # "See also _____ for more.": nothing left to recall it from
    return Prompt("cloze", f"Fill in the blank: {blanked}", term, statement.text)


def _cards_of(node: SnapshotNode, said: list[Statement], index: KeyTerms,
              titles: Mapping[str, list[str]]) -> list[DeckCard]:
    terms = index.of(node.id, KEY_TERMS)
    banned = _title_words(node)
    title = node.text
    out: list[DeckCard] = []
    for statement in said:
        defined = definition(statement.text)
        if defined is not None:
            prompt = Prompt("recall", f"Recall what you know about “{defined.subject}”.",
                            statement.text, statement.text)
            card = DeckCard(node.id, prompt, defined.subject, normal(statement.text))
        else:
            cloze = _cloze(statement, terms, banned, titles)
            if cloze is None:
                continue
            card = DeckCard(node.id, cloze, title, normal(statement.text))
        if not answers_own_subject(card):
            out.append(card)
    return out


class Deck:
    """Every topic's model-free cards, in its note's order (at most ``MOST_PER_TOPIC``). Only
    topics (one per note) get cards here; a session's proposition is its own statement and
    keeps ``review_prompt``."""

    def __init__(self, nodes: Iterable[SnapshotNode]) -> None:
        topics = [n for n in nodes if is_topic(n)]
        self.topics = {n.id for n in topics}
        said = {n.id: list(statements(n)) for n in topics}
        index = KeyTerms({n.id: [n.text, *(s.text for s in said[n.id])] for n in topics})
        titles = _names_by_word(n.text for n in topics)
        drafted = {n.id: _one_per_prompt(_cards_of(n, said[n.id], index, titles))
                   for n in topics}
        asked = Counter(normal(c.prompt.prompt) for cards in drafted.values() for c in cards)
        self.dropped = 0  # cards whose prompt another topic's card also asks
        self._cards: dict[str, tuple[DeckCard, ...]] = {}
        for node_id, cards in drafted.items():
            unique = [c for c in cards if asked[normal(c.prompt.prompt)] == 1]
            self.dropped += len(cards) - len(unique)
            self._cards[node_id] = tuple(unique[:MOST_PER_TOPIC])

    def cards(self, node_id: str) -> tuple[DeckCard, ...]:
        return self._cards.get(node_id, ())

    def is_topic(self, node_id: str) -> bool:
        return node_id in self.topics

    def all(self) -> list[DeckCard]:
        return [c for cards in self._cards.values() for c in cards]


def _names_by_word(titles: Iterable[str]) -> dict[str, list[str]]:
    """Every name of two or more words under each of its words, longest name first."""
    out: dict[str, list[str]] = {}
    for title in sorted(set(titles), key=lambda t: (-len(t), t)):
        if len(title.split()) > 1:
            for word in {fold(w) for w in words(title)}:
                out.setdefault(word, []).append(title)
    return out


def _one_per_prompt(cards: list[DeckCard]) -> list[DeckCard]:
    """A note that says the same thing twice asks it once (the first time)."""
    seen: set[str] = set()
    out = []
    for card in cards:
        asked = normal(card.prompt.prompt)
        if asked not in seen:
            seen.add(asked)
            out.append(card)
    return out
