"""What a topic says, as card material: its statements in plain text (wikilinks shown as their
label, Markdown removed), and the definitions among them ("X is …", "X: …", a term list item).

A topic node (one per note) carries its note's sentences as evidence quoted from the note's
sections (message id ``<source id>#<section>``); headings, embeds-only lines and callout titles
are not statements. Any other node (a session's proposition) has one statement: its own text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from studyhall.core.library.graph.view import SnapshotNode
from studyhall.core.library.learner.key_terms import STOP, words
from studyhall.core.library.sources.notes.prose import plain

MIN_WORDS = 5  # shorter says too little to ask about
MAX_WORDS = 45  # longer is a paragraph, not a statement one recalls
MAX_SUBJECT_WORDS = 5
MIN_DEFINITION_WORDS = 3  # what a definition says of its subject, at least
_LINE_MARKERS = re.compile(r"^\s*(?:>\s*)*(?:[-*+]\s+|\d+[.)]\s+)?(?:\[!\w+\][+-]?\s*)?")
_COPULA = re.compile(r"^(?P<subject>.+?)\s+(?:is|are|means|refers to|is called|denotes)\s+"
                     r"(?P<rest>.+)$", re.IGNORECASE)
_COLON = re.compile(r"^(?P<subject>[^:;,.!?]+?)\s*(?::|\s[—–-]\s)\s*(?P<rest>.+)$")
_MARKUP = ("[[", "](", "**", "__")
_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.IGNORECASE)
# A definition's subject is named, not pointed at: "It is …", "This means …" define nothing.
_NOT_A_SUBJECT = STOP | {"it", "this", "that", "these", "those", "there", "here", "each",
                         "you", "we", "they", "he", "she", "which", "what"}
# A place in the material ("Page two", "Slide 4", "point 41 of the lecture") names no idea: it is
# neither a subject to recall nor a term to blank. One pass: a word, spaces, a number.
LOCATOR = re.compile(
    r"\b(?P<word>page|slide|chapter|section|part|lecture|lesson|module|unit|week|step|point|"
    r"figure|fig|table|item|exercise|question)s?\.?\s+(?:\d+|[ivx]+\b|one|two|three|four|"
    r"five|six|seven|eight|nine|ten)\b", re.IGNORECASE)


class Statement(NamedTuple):
    text: str  # plain text, what a card shows
    quote: str  # the evidence quote it came from, raw (or the node's text)


class Definition(NamedTuple):
    subject: str  # what is defined ("binary heap")
    says: str  # what the statement says of it ("a complete binary tree with …")


def card_text(text: str) -> str:
    """A node's own text as a card shows it: wikilinks as their label and Markdown emphasis
    removed; a text with neither is kept as written (its ``<`` and ``$`` are data)."""
    return plain(text) if any(mark in text for mark in _MARKUP) else text


def is_topic(node: SnapshotNode) -> bool:
    """A node whose statements are its note's sentences (its text is the note's title)."""
    return any(e.message_id.startswith(e.source_id + "#") for e in node.evidence)


def statements(node: SnapshotNode) -> Iterator[Statement]:
    """The node's statements in its note's order, each once."""
    if not is_topic(node):
        yield Statement(card_text(node.text), node.text)
        return
    seen: set[str] = set()
    for evidence in node.evidence:
        if not evidence.message_id.startswith(evidence.source_id + "#"):
            continue
        raw = evidence.quote.strip()
        if not raw or raw.startswith("#"):
            continue  # a heading: the section's name, not something it says
        text = plain(_LINE_MARKERS.sub("", raw))
        key = text.casefold()
        if key in seen or not MIN_WORDS <= len(words(text)) <= MAX_WORDS:
            continue
        seen.add(key)
        yield Statement(text, raw)


def definition(text: str) -> Definition | None:
    """The subject and predicate of a definition-like statement, or None."""
    for pattern in (_COPULA, _COLON):
        match = pattern.match(text.strip())
        if match is None:
            continue
        subject = _ARTICLE.sub("", match.group("subject")).strip(" ,;:*_`\"'“”")
        says = match.group("rest").strip()
        if _named(subject) and len(words(says)) >= MIN_DEFINITION_WORDS:
            return Definition(subject, says)
    return None


def _named(subject: str) -> bool:
    named = words(subject)
    if not named or len(subject.split()) > MAX_SUBJECT_WORDS or LOCATOR.match(subject):
        return False
    if named[0].lower() in _NOT_A_SUBJECT:
        return False
    return any(w.lower() not in STOP for w in named)
