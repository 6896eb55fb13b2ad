"""A node's FSRS card is exactly what the ``fsrs`` package computes for the same grade history."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone

import fsrs
import pytest
from studyhall.core.library.learner.cards import Graded, replay, retrievability
from studyhall.core.library.learner.learner_day import LearnerDay

T0 = datetime(2025, 1, 1, 9, 0, tzinfo=UTC)
DAY = LearnerDay()  # the learner's day: from 4:00 (here UTC)
RATING = {"again": fsrs.Rating.Again, "hard": fsrs.Rating.Hard, "good": fsrs.Rating.Good,
          "easy": fsrs.Rating.Easy}

# (hours after the first review, grade): a learner's real-looking histories
HISTORIES = [
    [(0, "good")],
    [(0, "again"), (0.02, "again"), (0.2, "good"), (24, "good"), (96, "good")],
    [(0, "easy"), (200, "good"), (700, "hard"), (2000, "again"), (2000.2, "good")],
    [(0, "good"), (0.17, "good"), (72, "again"), (72.2, "hard"), (100, "easy"), (500, "good")],
]


def by_the_package(history: list[tuple[float, str]],
                   retention: float = 0.9) -> fsrs.Card:
    scheduler = fsrs.Scheduler(desired_retention=retention, enable_fuzzing=False)
    card = fsrs.Card(card_id=1, due=T0)
    for k, (hours, grade) in enumerate(history):  # each answer on its learner day (Anki's)
        card, _ = scheduler.review_card(card, RATING[grade],
                                        DAY.on_day_clock(T0 + timedelta(hours=hours), k))
    return card


@pytest.mark.parametrize("history", HISTORIES)
@pytest.mark.parametrize("retention", [0.9, 0.8])
def test_the_replayed_card_equals_the_packages(history, retention):
    expected = by_the_package(history, retention)
    grades = [Graded(T0 + timedelta(hours=h), g) for h, g in history]
    random.Random(len(history)).shuffle(grades)  # the ledger's order does not matter
    view = replay(grades, since=T0, desired_retention=retention)
    got = view.card
    assert (got.state, got.step, got.stability, got.difficulty, got.due, got.last_review) == (
        expected.state, expected.step, expected.stability, expected.difficulty, expected.due,
        expected.last_review)
    assert view.reviews == len(history)
    now = T0 + timedelta(days=400)
    scheduler = fsrs.Scheduler(desired_retention=retention, enable_fuzzing=False)
    assert retrievability(view, now, retention) == scheduler.get_card_retrievability(
        expected, DAY.on_day_clock(now, len(history)))


def test_times_in_any_zone_replay_as_utc():
    paris = timezone(timedelta(hours=1))
    here = replay([Graded((T0 + timedelta(hours=5)).astimezone(paris), "good")], since=T0)
    assert here.card == replay([Graded(T0 + timedelta(hours=5), "good")], since=T0).card


def test_a_card_never_reviewed_is_new_due_since_it_became_reviewable():
    view = replay([], since=T0)
    assert view.phase == "new" and view.due == T0 and view.reviews == 0
    assert retrievability(view, T0 + timedelta(days=3)) is None
    learning = replay([Graded(T0, "again")], since=T0)
    assert learning.phase == "learning" and learning.phases == ("new",)
    reviewed = replay([Graded(T0, "good"), Graded(T0 + timedelta(minutes=10), "good")], since=T0)
    assert reviewed.phase == "review" and reviewed.phases == ("new", "learning")
