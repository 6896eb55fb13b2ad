"""Today's review queue, backlog-safe, and the forecast of reviews for the next days.

Caps: at most ``new_cards_per_day`` new cards and ``reviews_per_day`` reviews a day (a card
graded today counts once, whatever its grades; its learning steps come back today for free).
A backlog does not come back as a wall: of the cards overdue at the start of the day, only
``ceil(backlog / SPREAD_DAYS)`` (at least ``SMALL_BACKLOG``) are taken today — the rest wait for
the following days, most at risk first. Order: lowest retrievability first (in bands of 0.05),
then importance (evidence and links), and a card's prerequisites (``follows`` edges) always
before it when both are in the queue. Days are learner days (``learner_day.py``: starting at
the rollover hour, 4:00 by default) in the time zone of ``now``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Literal, NamedTuple

from studyhall.core.library.learner.cards import CardView, Graded, replay, retrievability
from studyhall.core.library.learner.learner_day import DEFAULT_DAY, FsrsRules, LearnerDay

SPREAD_DAYS = 7  # an overdue backlog is spread over about a week
SMALL_BACKLOG = 10  # a backlog this small is taken at once
_BAND = 20  # retrievability is compared in bands of 1/20: within one, importance decides

DueKind = Literal["new", "review", "learning"]


class Limits(NamedTuple):
    new_per_day: int = 20
    reviews_per_day: int = 200
    desired_retention: float = 0.9
    day: LearnerDay = DEFAULT_DAY
    decks: Mapping[str, FsrsRules] = {}  # node id → its Anki deck's rules (others: the above)

    def rules(self, node_id: str) -> FsrsRules:
        """What the node's card is replayed under (its deck's rules on the learner's day)."""
        own = self.decks.get(node_id)
        if own is None:
            return FsrsRules(self.desired_retention, (), self.day)
        return own._replace(day=self.day)


class Reviewable(NamedTuple):
    """A node that can be reviewed: its grades and since when it is reviewable."""

    node_id: str
    grades: tuple[Graded, ...]
    since: datetime
    importance: float = 0.0


class Due(NamedTuple):
    node_id: str
    kind: DueKind  # new: first time; review: scheduled; learning: a step again today
    view: CardView
    retrievability: float | None
    overdue: bool


@dataclass(frozen=True)
class DayPlan:
    today: date
    due: tuple[Due, ...]  # today's queue, in order (cards due later today last)
    cards: Mapping[str, CardView]  # every reviewable node's card now
    new_done: int  # new cards first graded today
    reviews_done: int  # started cards graded today
    overdue: int  # overdue cards not yet reviewed (today's share and the rest)
    deferred: int  # cards due by today that wait for a later day (over a cap)
    upcoming: Mapping[date, int] = field(default_factory=dict)  # started cards due after today

    @property
    def new_today(self) -> int:
        return sum(1 for d in self.due if d.kind == "new")


def overdue_allowance(backlog: int) -> int:
    """How many of ``backlog`` overdue cards one day takes."""
    return min(backlog, max(math.ceil(backlog / SPREAD_DAYS), SMALL_BACKLOG))


def day_bounds(now: datetime, day: LearnerDay = DEFAULT_DAY) -> tuple[datetime, datetime]:
    """Today's learner day, from its start to the next one's (``day``'s time zone is now's)."""
    return day._replace(tz=now.tzinfo or day.tz).bounds(now)


def plan_day(items: Iterable[Reviewable], now: datetime, limits: Limits,
             ancestors: Callable[[str], Sequence[str]] = lambda _: ()) -> DayPlan:
    """Today's queue. ``ancestors(node)``: its prerequisites, nearest first."""
    limits = limits._replace(day=limits.day._replace(tz=now.tzinfo or limits.day.tz))
    dawn, dusk = limits.day.bounds(now)
    cards: dict[str, CardView] = {}
    new: list[Reviewable] = []
    reviews: list[Due] = []
    stepping: list[Due] = []  # graded today and due again today
    new_done = reviews_done = overdue_done = 0
    importance: dict[str, float] = {}
    for item in items:
        importance[item.node_id] = item.importance
        rules = limits.rules(item.node_id)
        view = cards[item.node_id] = replay(item.grades, item.since, rules=rules)
        earlier = tuple(g for g in item.grades if g.at < dawn)
        graded_today = len(earlier) < len(item.grades)
        r = retrievability(view, now)
        if graded_today:
            if earlier:
                reviews_done += 1
                overdue_done += replay(earlier, item.since, rules=rules).due < dawn
            else:
                new_done += 1
            if view.due < dusk:
                stepping.append(Due(item.node_id, "learning", view, r, False))
        elif not earlier:
            new.append(item)
        elif view.due < dusk:
            reviews.append(Due(item.node_id, "review", view, r, view.due < dawn))

    overdue_now = sum(1 for d in reviews if d.overdue)
    spread = overdue_allowance(overdue_now + overdue_done) - overdue_done
    budget = max(0, limits.reviews_per_day - reviews_done)
    reviews.sort(key=lambda d: (math.floor((d.retrievability or 0.0) * _BAND),
                                -importance[d.node_id], d.node_id))
    taken: list[Due] = []
    for d in _prerequisites_first(reviews, ancestors):
        if budget > 0 and (not d.overdue or spread > 0):
            taken.append(d)
            budget -= 1
            spread -= d.overdue
    deferred = len(reviews) - len(taken)

    new.sort(key=lambda i: (-i.importance, i.since, i.node_id))
    fresh = [Due(i.node_id, "new", cards[i.node_id], None, False) for i in new]
    fresh = _prerequisites_first(fresh, ancestors)[:max(0, limits.new_per_day - new_done)]

    stepping.sort(key=lambda d: (d.view.due, d.node_id))
    ready = [d for d in stepping if d.view.due <= now]
    later = [d for d in stepping if d.view.due > now]
    in_queue = {d.node_id for d in (*taken, *stepping)}
    upcoming = Counter(
        limits.day.date_of(v.due) for node_id, v in cards.items()
        if v.reviews and node_id not in in_queue and v.due >= dusk)
    return DayPlan(today=limits.day.date_of(now), due=(*ready, *taken, *fresh, *later), cards=cards,
                   new_done=new_done, reviews_done=reviews_done,
                   overdue=overdue_now, deferred=deferred, upcoming=dict(upcoming))


class ForecastDay(NamedTuple):
    day: date
    due: int  # started cards whose FSRS due date falls on the day (today: all due by today)
    planned: int  # what the caps and the spreading give that day


def forecast(plan: DayPlan, limits: Limits, days: int = 30) -> list[ForecastDay]:
    """Reviews per day for ``days`` days from today, the caps and the spreading applied to the
    cards already started (new cards' futures are not known yet)."""
    today_due = sum(1 for d in plan.due if d.kind != "new") + plan.deferred
    out = [ForecastDay(plan.today, today_due, today_due - plan.deferred)]
    carry = plan.deferred  # waiting cards: overdue from tomorrow on
    cap = limits.reviews_per_day
    for k in range(1, days):
        day = plan.today + timedelta(days=k)
        fresh = plan.upcoming.get(day, 0)
        old = min(carry, overdue_allowance(carry), cap)
        young = min(fresh, cap - old)
        carry += fresh - old - young
        out.append(ForecastDay(day, fresh, old + young))
    return out


def _prerequisites_first(order: Sequence[Due],
                         ancestors: Callable[[str], Sequence[str]]) -> list[Due]:
    """``order`` with every card's prerequisites (those in ``order``) moved just before it.

    In a graph without cycles a prerequisite has strictly fewer prerequisites than the cards
    built on it, so emitting the pending ones by that count keeps every chain in order."""
    by_id = {d.node_id: d for d in order}
    if len(by_id) < 2:
        return list(order)
    rank = {node_id: i for i, node_id in enumerate(by_id)}
    within = {n: [a for a in ancestors(n) if a in by_id] for n in by_id}
    if not any(within.values()):
        return list(order)
    out: list[Due] = []
    done: set[str] = set()
    for d in order:
        if d.node_id in done:
            continue
        pending = sorted((a for a in within[d.node_id] if a not in done),
                         key=lambda a: (len(within[a]), rank[a]))
        for a in (*pending, d.node_id):
            done.add(a)
            out.append(by_id[a])
    return out
