"""A node's FSRS card, derived by replaying its review grades through the ``fsrs`` package.

Nothing about a card is stored: the grades are the evidence, and the card (stability,
difficulty, due date, learning step) is whatever ``fsrs.Scheduler(enable_fuzzing=False)``
computes for them, in order, at read time — so a card is always explainable and equal to what
the package would give for the same history. Fuzzing is off because it draws random numbers: a
replay must give the same card every time.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Literal, NamedTuple, cast

from studyhall.core.contracts.learner import Grade

if TYPE_CHECKING:  # imported on first use: the app's start-up does not pay for it
    from fsrs import Card, Scheduler

CardPhase = Literal["new", "learning", "review", "relearning"]


class Graded(NamedTuple):
    at: datetime
    grade: Grade


class CardView(NamedTuple):
    """A node's card now: the package's card, and what the queue and the API read from it."""

    card: Card
    reviews: int  # grades replayed
    phases: tuple[CardPhase, ...]  # the phase before each grade (retention counts reviews)

    @property
    def phase(self) -> CardPhase:
        return "new" if self.reviews == 0 else _phase(self.card)

    @property
    def due(self) -> datetime:
        return self.card.due


@lru_cache(maxsize=8)
def scheduler(desired_retention: float = 0.9) -> Scheduler:
    """The one scheduler per retention target (its parameters are the package's defaults)."""
    from fsrs import Scheduler

    return Scheduler(desired_retention=desired_retention, enable_fuzzing=False)


def _phase(card: Card) -> CardPhase:
    return cast(CardPhase, card.state.name.lower())  # Learning / Review / Relearning


def utc(at: datetime) -> datetime:
    """The package takes UTC only; a naive time is taken as UTC."""
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)


def replay(grades: Sequence[Graded], since: datetime, desired_retention: float = 0.9) -> CardView:
    """The card after ``grades`` (any order; replayed oldest first). ``since``: when the node
    became reviewable — a new card is due from then."""
    from fsrs import Card, Rating

    s = scheduler(desired_retention)
    card = Card(card_id=0, due=utc(since))  # an id given: Card() would sleep to make one
    phases: list[CardPhase] = []
    for count, (at, grade) in enumerate(sorted(grades)):
        phases.append("new" if count == 0 else _phase(card))
        card, _ = s.review_card(card, Rating[grade.capitalize()], utc(at))
    return CardView(card, len(phases), tuple(phases))


def retrievability(view: CardView, now: datetime, desired_retention: float = 0.9) -> float | None:
    """P(recall now) as FSRS computes it; None for a card never reviewed (nothing to recall)."""
    if view.reviews == 0:
        return None
    return float(scheduler(desired_retention).get_card_retrievability(view.card, utc(now)))
