"""The learner's day and the FSRS rules a card is replayed under.

A day starts at ``starts_hour`` local time (Anki's "next day starts at", 4:00 by default), and
FSRS counts the days between two answers as the difference of their learner days — as Anki
does: an answer at 21:00 and the next at 08:00 are one day apart, two answers at 05:00 and
03:00 the next morning are none. The ``fsrs`` package counts 24-hour spans, so a replay feeds it
each answer on a *day clock* (``on_day_clock``): its learner day as whole days from year one,
plus one microsecond per earlier answer (order kept, never a day crossed). Its intervals are
then whole learner days (the queue takes a card due on a day from that day's start).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import TYPE_CHECKING, NamedTuple

from studyhall.core.contracts.anki_deck import DECK_ARTIFACT
from studyhall.core.contracts.settings import DeckReview

if TYPE_CHECKING:
    from studyhall.core.library.learner.flashcards import Flashcards

DEFAULT_DAY_STARTS_HOUR = 4  # Anki's default rollover
_YEAR_ONE = datetime(1, 1, 1, tzinfo=UTC)


class LearnerDay(NamedTuple):
    starts_hour: int = DEFAULT_DAY_STARTS_HOUR
    tz: tzinfo = UTC  # the learner's local time zone (as a fixed offset)

    def date_of(self, at: datetime) -> date:
        """The learner day ``at`` falls on (an answer at 02:00 belongs to the day before)."""
        local = at.replace(tzinfo=UTC) if at.tzinfo is None else at
        return (local.astimezone(self.tz) - timedelta(hours=self.starts_hour)).date()

    def dawn(self, day: date) -> datetime:
        """When the learner day ``day`` starts."""
        return datetime.combine(day, time(self.starts_hour), self.tz)

    def bounds(self, now: datetime) -> tuple[datetime, datetime]:
        """Today's start and the next day's start (in the time zone of ``now``)."""
        dawn = self.dawn(self.date_of(now)).astimezone(now.tzinfo)
        return dawn, self.dawn(self.date_of(now) + timedelta(days=1)).astimezone(now.tzinfo)

    def on_day_clock(self, at: datetime, order: int) -> datetime:
        """``at`` on the day clock: days elapsed between two such times are learner days."""
        return _YEAR_ONE + timedelta(days=self.date_of(at).toordinal() - 1, microseconds=order)

    def from_day_clock(self, clock_due: datetime, clock_last: datetime,
                       last: datetime) -> datetime:
        """A due date the replay gave on the day clock, in real time: that long after the real
        last answer (a review's whole learner days later, the queue takes it from that day's
        start; a learning step's minutes later)."""
        return last + (clock_due - clock_last)


DEFAULT_DAY = LearnerDay()


class FsrsRules(NamedTuple):
    """What a card is replayed under: its deck's parameters (empty: the package's defaults),
    the recall probability it is scheduled for, and the learner's day."""

    desired_retention: float = 0.9
    parameters: tuple[float, ...] = ()
    day: LearnerDay = DEFAULT_DAY


def deck_rules(decks: Mapping[str, DeckReview], cards: Flashcards) -> dict[str, FsrsRules]:
    """Node id → the rules of the Anki deck its kept card is in (a node in two decks: the
    first deck's, by name)."""
    out: dict[str, FsrsRules] = {}
    for name in sorted(decks):
        own = decks[name]
        rules = FsrsRules(own.desired_retention, tuple(own.parameters))
        for card in cards.by_artifact.get(f"{DECK_ARTIFACT}{name}", ()):
            out.setdefault(card.node_id, rules)
    return out
