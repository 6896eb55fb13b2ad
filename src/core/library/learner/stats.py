"""Learning statistics as plot data: mastery over time, and the retention achieved in scheduled
reviews against the target FSRS schedules for.

Both are replays of the evidence: mastery on a past day is the score its events had given by the
end of that day; retention counts the reviews of cards FSRS had in review (learning steps are
not a test of memory) that were not graded "again".
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from datetime import date, datetime, timedelta, tzinfo
from typing import NamedTuple

from studyhall.core.library.learner.cards import CardView, Graded
from studyhall.core.library.learner.mastery import SOLID_AT, Score


class MasteryDay(NamedTuple):
    day: date
    mean: float | None  # mean mastery of the concepts tried by the end of the day
    solid: int
    shaky: int
    tried: int


def mastery_over_time(scores: Iterable[Score], days: Sequence[date],
                      zone: tzinfo) -> list[MasteryDay]:
    """Mastery at the end of each of ``days`` (ascending), over every concept tried by then."""
    ends = [datetime(d.year, d.month, d.day, tzinfo=zone) + timedelta(days=1) for d in days]
    totals = [[0.0, 0, 0] for _ in days]  # sum, solid, tried
    for s in scores:
        times = [signal.at for signal in s.signals]
        for i, end in enumerate(ends):
            seen = bisect_left(times, end)  # events strictly before the end of the day
            if seen:
                value = s.trace[seen - 1]
                totals[i][0] += value
                totals[i][1] += value >= SOLID_AT
                totals[i][2] += 1
    out: list[MasteryDay] = []
    for d, (total, solid, tried) in zip(days, totals, strict=True):
        n_solid, n_tried = int(solid), int(tried)
        mean = round(total / n_tried, 4) if n_tried else None
        out.append(MasteryDay(d, mean, n_solid, n_tried - n_solid, n_tried))
    return out


class RetentionWeek(NamedTuple):
    start: date
    reviews: int
    achieved: float | None


class Retention(NamedTuple):
    target: float
    reviews: int  # scheduled reviews in the window
    achieved: float | None  # the share recalled (None: no review yet)
    weeks: tuple[RetentionWeek, ...]


def retention(cards: Iterable[tuple[Sequence[Graded], CardView]], now: datetime, target: float,
              weeks: int = 4) -> Retention:
    """Retention over the last ``weeks`` weeks (oldest week first), from each card's grades and
    the phase its card was in before each one."""
    start = now - timedelta(weeks=weeks)
    counts = [[0, 0] for _ in range(weeks)]  # reviews, recalled
    for grades, view in cards:
        for (at, grade), phase in zip(sorted(grades), view.phases, strict=True):
            if phase != "review" or not start <= at <= now:
                continue
            week = min(weeks - 1, int((at - start) / timedelta(weeks=1)))
            counts[week][0] += 1
            counts[week][1] += grade != "again"
    total = sum(c[0] for c in counts)
    recalled = sum(c[1] for c in counts)
    rows = tuple(
        RetentionWeek((start + timedelta(weeks=i)).astimezone(now.tzinfo).date(), n,
                      round(ok / n, 4) if n else None)
        for i, (n, ok) in enumerate(counts))
    return Retention(target, total, round(recalled / total, 4) if total else None, rows)
