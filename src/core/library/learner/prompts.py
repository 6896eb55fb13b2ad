"""Review prompts built from a node's own content, no model needed: a cloze (the node's text
with its most telling term blanked) or "Recall what you know about X", the answer revealed on
demand (the node's text and a quote of the evidence it rests on).

The term to blank is the node's rarest word across the graph (inverse document frequency over
node texts; longer first on a tie): the word that says what this node is about, not "function".
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from typing import Literal, NamedTuple

from studyhall.core.library.learner.key_terms import STOP as _STOP
from studyhall.core.library.learner.key_terms import words
from studyhall.core.library.learner.statements import card_text

# "question": a stored model-written one; "flashcard": a card the learner kept
PromptKind = Literal["cloze", "recall", "question", "flashcard"]

BLANK = "_____"
_COPULA = re.compile(r"(.+?)\s+(?:is|are|was|were|means|refers to)\s", re.IGNORECASE)
_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.IGNORECASE)
_MIN_WORDS = 5  # a shorter text blanks too much of itself: recall instead
_CUE_MIN_WORDS = 8  # a statement this long is cued by its opening words


class Prompt(NamedTuple):
    kind: PromptKind
    prompt: str
    answer: str  # what to reveal: the blanked term, or the node's text
    evidence: str | None = None  # the quote a stored question rests on (None: the node's first)


class TermWeights:
    """Document frequencies of words over the graph's node texts (one count per node)."""

    def __init__(self, texts: Iterable[str]) -> None:
        self.counts: Counter[str] = Counter()
        self.documents = 0
        for text in texts:
            self.documents += 1
            self.counts.update({w.lower() for w in words(text)})

    def weight(self, word: str) -> float:
        return math.log((1 + self.documents) / (1 + self.counts[word.lower()]))


def salient_term(text: str, weights: TermWeights) -> str | None:
    """The word of ``text`` that best names it, or None when it has no content word."""
    best: tuple[float, int, int] | None = None
    chosen: str | None = None
    for position, word in enumerate(words(text)):
        if len(word) < 4 or word.lower() in _STOP:
            continue
        key = (weights.weight(word), len(word), -position)
        if best is None or key > best:
            best, chosen = key, word
    return chosen


def review_prompt(text: str, weights: TermWeights, variant: int = 0) -> Prompt:
    """The prompt for a node: a cloze when the text allows one, else a recall prompt; an odd
    ``variant`` asks the recall form even where a cloze is possible (the review queue asks
    variant 0 on every visit: one card, one question). Wikilinks and emphasis are shown as
    plain text."""
    text = card_text(text)
    term = salient_term(text, weights)
    if term is not None and len(words(text)) >= _MIN_WORDS and variant % 2 == 0:
        pattern = re.compile(rf"(?<![\w]){re.escape(term)}(?![\w])", re.IGNORECASE)
        return Prompt("cloze", f"Fill in the blank: {pattern.sub(BLANK, text)}", term)
    # A definition names what to recall ("A tree is …" → "tree"). Any other statement is cued
    # by its opening words: one word of it ("array") would not say which idea is asked for.
    subject = _subject(text)
    if subject is not None:
        return Prompt("recall", f"Recall what you know about “{subject}”.", text)
    head = text.split()
    if len(head) >= _CUE_MIN_WORDS:
        cue = " ".join(head[:max(3, min(8, len(head) // 3))])
        return Prompt("recall", f"Complete from memory: “{cue} …”", text)
    about = next((w for w in words(text) if len(w) >= 3 and w.lower() not in _STOP), None) \
        or _opening(text)
    return Prompt("recall", f"Recall what you know about “{about}”.", text)


def _subject(text: str) -> str | None:
    """What a definition-like statement is about: "A tree is …" → "tree"."""
    match = _COPULA.match(text.strip())
    if match is None:
        return None
    subject = _ARTICLE.sub("", match.group(1)).strip(" ,;:")
    return subject if 0 < len(subject.split()) <= 6 else None


def _opening(text: str, most: int = 6) -> str:
    head = text.split()
    return " ".join(head[:most]) + ("…" if len(head) > most else "")
