"""A node's FSRS card, derived by replaying its review grades through the ``fsrs`` package.

Nothing about a card is stored: the grades are the evidence, and the card (stability,
difficulty, due date, learning step) is whatever ``fsrs.Scheduler(enable_fuzzing=False)``
computes for them, in order, at read time — so a card is always explainable and equal to what
the package would give for the same history. Fuzzing is off because it draws random numbers: a
replay must give the same card every time. Days between answers are learner days, as in Anki
(``learner_day.py``: the package is fed each answer on a day clock), under the deck's rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Literal, NamedTuple, cast

from studyhall.core.contracts.learner import Grade
from studyhall.core.library.learner.learner_day import FsrsRules

if TYPE_CHECKING:  # imported on first use: the app's start-up does not pay for it
    from fsrs import Card, Scheduler

CardPhase = Literal["new", "learning", "review", "relearning"]


class Graded(NamedTuple):
    at: datetime
    grade: Grade


class CardView(NamedTuple):
    """A node's card now: the package's card, and what the queue and the API read from it."""

    card: Card  # on the day clock (its due and last review are not real times: see ``due``)
    reviews: int  # grades replayed
    phases: tuple[CardPhase, ...]  # the phase before each grade (retention counts reviews)
    due: datetime  # when the card is due, in real time
    rules: FsrsRules = FsrsRules()

    @property
    def phase(self) -> CardPhase:
        return "new" if self.reviews == 0 else _phase(self.card)


@lru_cache(maxsize=32)
def scheduler(desired_retention: float = 0.9, parameters: tuple[float, ...] = ()) -> Scheduler:
    """The one scheduler per retention target and parameters (none: the package's defaults)."""
    from fsrs import Scheduler

    if parameters:
        return Scheduler(parameters, desired_retention=desired_retention, enable_fuzzing=False)
    return Scheduler(desired_retention=desired_retention, enable_fuzzing=False)


def _phase(card: Card) -> CardPhase:
    return cast(CardPhase, card.state.name.lower())  # Learning / Review / Relearning


def utc(at: datetime) -> datetime:
    """The package takes UTC only; a naive time is taken as UTC."""
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)


def replay(grades: Sequence[Graded], since: datetime, desired_retention: float = 0.9, *,
           rules: FsrsRules | None = None) -> CardView:
    """The card after ``grades`` (any order; replayed oldest first) under ``rules`` (not given:
    the package's parameters for ``desired_retention`` on the default learner day). ``since``:
    when the node became reviewable — a new card is due from then."""
    from fsrs import Card, Rating

    rules = rules or FsrsRules(desired_retention)
    s = scheduler(rules.desired_retention, rules.parameters)
    card = Card(card_id=0, due=utc(since))  # an id given: Card() would sleep to make one
    phases: list[CardPhase] = []
    ordered = sorted(grades)
    for count, (at, grade) in enumerate(ordered):
        phases.append("new" if count == 0 else _phase(card))
        card, _ = s.review_card(card, Rating[grade.capitalize()],
                                rules.day.on_day_clock(at, count))
    if not ordered:
        return CardView(card, 0, (), card.due, rules)
    last = utc(ordered[-1].at)
    due = rules.day.from_day_clock(card.due, rules.day.on_day_clock(last, len(ordered) - 1),
                                   last)
    return CardView(card, len(phases), tuple(phases), due, rules)


def retrievability(view: CardView, now: datetime,
                   desired_retention: float | None = None) -> float | None:
    """P(recall now) as FSRS computes it, learner days since the last answer (the card's own
    rules; ``desired_retention`` is not used by the formula); None for a card never reviewed."""
    if view.reviews == 0:
        return None
    s = scheduler(view.rules.desired_retention, view.rules.parameters)
    return float(s.get_card_retrievability(view.card, view.rules.day.on_day_clock(
        now, view.reviews)))
