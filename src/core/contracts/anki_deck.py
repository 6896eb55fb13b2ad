"""An Anki package as the import reads it: its notes (fields already plain text), the deck each
one is in, and each note's review history — value types, no I/O (``adapters/sources/
anki_package.py`` reads the ``.apkg``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from studyhall.core.contracts.learner import Grade

DECK_SEPARATOR = "::"  # Anki's nesting: "Languages::Spanish::Verbs"
DECK_ARTIFACT = "anki:"  # a deck's kept cards belong to the artifact "anki:<deck name>"


@dataclass(frozen=True)
class AnkiReview:
    """One answer in the note's review log (what Anki's FSRS skips is left out: manual and
    "set due date" rows, and cram answers in a filtered deck that does not reschedule)."""

    id: str  # "<revlog id>-<card id>": stable across exports of the same collection
    at: datetime  # UTC, from the revlog id (milliseconds since the epoch)
    grade: Grade


@dataclass(frozen=True)
class AnkiNote:
    guid: str  # Anki's own stable id for the note (kept across exports)
    deck: str  # the full deck name, "::"-nested
    front: str  # what the card asks (a cloze with its gaps as "[…]")
    back: str  # what it answers (a cloze filled in, with its extra field)
    statement: str  # the note as one statement: the graph's proposition
    tags: tuple[str, ...] = ()
    media: tuple[str, ...] = ()  # media files the fields mention (the files are not read)
    reviews: tuple[AnkiReview, ...] = ()  # oldest first
    suspended: bool = False  # every card of the note suspended in Anki: out of review here too


@dataclass(frozen=True)
class AnkiDeckOptions:
    """A deck's FSRS options as its collection holds them."""

    deck: str
    parameters: tuple[float, ...] = ()  # its optimised FSRS-6 weights (empty: the defaults)
    desired_retention: float = 0.9


@dataclass(frozen=True)
class AnkiDeckFile:
    """What one ``.apkg`` holds."""

    path: str  # absolute
    notes: tuple[AnkiNote, ...]
    skipped: tuple[tuple[str, str], ...] = ()  # (note guid, why): e.g. every field empty
    reviews_left_out: int = 0  # revlog rows that were not answers (reschedules, manual)
    cut: tuple[tuple[str, str], ...] = ()  # (note guid, what was cut): imported, shortened
    cram_left_out: int = 0  # answers in a filtered deck with rescheduling off (FSRS skips them)
    day_starts_hour: int | None = None  # the collection's "next day starts at" (when it says)
    options: tuple[AnkiDeckOptions, ...] = ()  # the FSRS options of each deck holding notes


def deck_levels(deck: str) -> list[str]:
    """Every level of a nested deck name, outermost first ("A::B" → ["A", "A::B"])."""
    parts = [p.strip() for p in deck.split(DECK_SEPARATOR)]
    parts = [p for p in parts if p] or ["Default"]
    return [DECK_SEPARATOR.join(parts[: n + 1]) for n in range(len(parts))]
