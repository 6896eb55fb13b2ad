"""Today's review queue: daily caps, an overdue backlog spread over the next days, order by
retrievability, importance and prerequisites, and the 30-day forecast."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from studyhall.core.library.learner.cards import Graded, replay
from studyhall.core.library.learner.prerequisites import PrerequisiteGraph
from studyhall.core.library.learner.queue import (
    SMALL_BACKLOG,
    Limits,
    Reviewable,
    forecast,
    overdue_allowance,
    plan_day,
)

T0 = datetime(2025, 1, 1, 9, 0, tzinfo=UTC)


def started(node: str, at: datetime = T0, importance: float = 0.0) -> Reviewable:
    """A card graded good twice on ``at``'s day: in review, due a few days later."""
    return Reviewable(node, (Graded(at, "good"), Graded(at + timedelta(minutes=10), "good")),
                      at, importance)


def new(node: str, importance: float = 0.0) -> Reviewable:
    return Reviewable(node, (), T0, importance)


def due_of(item: Reviewable) -> datetime:
    return replay(item.grades, item.since).due


def test_new_cards_are_capped_per_day_counting_those_started_today():
    items = [new(f"n{i:02d}", importance=i) for i in range(30)]
    plan = plan_day(items, T0, Limits(new_per_day=20))
    assert plan.new_today == 20 and len(plan.due) == 20
    assert [d.node_id for d in plan.due[:2]] == ["n29", "n28"]  # most important first
    # Five were graded today: fifteen more new ones, and the five come back as learning steps.
    later = T0 + timedelta(hours=1)
    graded = [Reviewable(i.node_id, (Graded(later, "again"),), T0) for i in items[:5]]
    plan = plan_day([*graded, *items[5:]], later + timedelta(minutes=5), Limits(new_per_day=20))
    assert (plan.new_done, plan.new_today) == (5, 15)
    assert [d.kind for d in plan.due].count("learning") == 5


def test_reviews_are_capped_and_a_card_graded_today_counts_once():
    at = T0 - timedelta(days=30)
    items = [started(f"r{i}", at) for i in range(8)]
    due = max(due_of(i) for i in items)
    now = due.replace(hour=23, minute=0)  # every card is due today (not overdue: same day)
    plan = plan_day(items, now, Limits(reviews_per_day=5))
    assert [d.kind for d in plan.due] == ["review"] * 5 and plan.deferred == 3
    assert plan.overdue == 0
    # r0 graded again three times today: one review done, four left under the cap.
    first = items[0]
    again = tuple(Graded(now - timedelta(minutes=m), "again") for m in (30, 20, 10))
    plan = plan_day([Reviewable("r0", (*first.grades, *again), first.since), *items[1:]],
                    now, Limits(reviews_per_day=5))
    assert plan.reviews_done == 1
    assert sum(1 for d in plan.due if d.kind == "review") == 4


def test_an_overdue_backlog_is_spread_over_the_next_days_not_a_wall():
    items = [started(f"o{i:03d}") for i in range(100)]
    now = T0 + timedelta(days=60)
    plan = plan_day(items, now, Limits(reviews_per_day=200))
    assert plan.overdue == 100
    assert len(plan.due) == overdue_allowance(100) == 15  # ceil(100 / 7), not 100
    assert plan.deferred == 85
    days = forecast(plan, Limits(reviews_per_day=200), days=30)
    assert days[0].planned == 15 and days[0].due == 100
    planned = [d.planned for d in days]
    assert sum(planned) == 100 and max(planned) == 15  # every card, none in a wall
    assert all(p <= 15 for p in planned[1:]) and planned[-1] == 0
    # A small backlog is taken at once.
    small = plan_day(items[:SMALL_BACKLOG], now, Limits())
    assert len(small.due) == SMALL_BACKLOG and small.deferred == 0


def test_the_spreading_share_is_stable_through_the_day():
    items = [started(f"o{i:03d}") for i in range(70)]
    now = T0 + timedelta(days=60)
    first = plan_day(items, now, Limits())
    assert len(first.due) == 10  # ceil(70 / 7)
    # Four of today's share reviewed: six remain today, not a fresh tenth of what is left.
    done = {d.node_id for d in first.due[:4]}
    later = now + timedelta(minutes=30)
    graded = [Reviewable(i.node_id, (*i.grades, Graded(now, "good")), i.since)
              if i.node_id in done else i for i in items]
    second = plan_day(graded, later, Limits())
    assert sum(1 for d in second.due if d.kind == "review") == 6


def test_lowest_retrievability_first_then_importance():
    long_ago, lately = T0 - timedelta(days=40), T0 - timedelta(days=6)
    items = [started("fresh", lately, importance=9), started("faded", long_ago, importance=0),
             started("faded_important", long_ago, importance=5)]
    now = T0 + timedelta(days=30)
    order = [d.node_id for d in plan_day(items, now, Limits()).due]
    assert order == ["faded_important", "faded", "fresh"]
    rs = {d.node_id: d.retrievability for d in plan_day(items, now, Limits()).due}
    assert rs["faded"] < rs["fresh"]


def test_prerequisites_come_before_the_cards_built_on_them():
    # counting -> addition -> multiplication; the dependents are the more important ones.
    follows = [("counting", "addition"), ("addition", "multiplication")]
    items = [new("multiplication", 9), new("addition", 5), new("counting", 1), new("other", 3)]
    ancestors = PrerequisiteGraph(follows).ancestors
    order = [d.node_id for d in plan_day(items, T0, Limits(), ancestors).due]
    assert order == ["counting", "addition", "multiplication", "other"]
    # With the cap cutting the queue, the foundations are what is kept.
    capped = [d.node_id for d in plan_day(items, T0, Limits(new_per_day=2), ancestors).due]
    assert capped == ["counting", "addition"]


def test_the_forecast_applies_the_review_cap():
    items = [started(f"c{i}") for i in range(12)]
    due_day = due_of(items[0]).date()
    plan = plan_day(items, T0 + timedelta(hours=1), Limits(reviews_per_day=5))
    days = {d.day: d for d in forecast(plan, Limits(reviews_per_day=5), days=30)}
    assert days[due_day].due == 12 and days[due_day].planned == 5
    nxt = due_day + timedelta(days=1)
    assert days[nxt].planned == 5  # the seven left over: no more than the cap a day
    assert sum(d.planned for d in days.values()) == 12
