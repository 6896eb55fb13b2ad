"""What the review screen shows before a grade: the due date each grade would give a card (the
same ``fsrs`` replay a grade triggers, one hypothetical grade longer), when the next card after
today's queue is due, and a node's card for "Review now" when today's queue does not hold it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from studyhall.core.contracts.learner import GRADES
from studyhall.core.library.learner.cards import CardView, Graded, replay, retrievability
from studyhall.core.library.learner.model import LearnerModel
from studyhall.core.library.learner.queue import Due, day_bounds


def _since(model: LearnerModel, node_id: str) -> datetime:
    """Since when the node is reviewable; a node never studied becomes so by its first grade."""
    for item in model.reviewables:
        if item.node_id == node_id:
            return item.since
    return model.now


def next_due(model: LearnerModel, node_id: str) -> dict[str, str]:
    """``{grade: due_at}``: the card's due date if it were graded so now — the node's grades
    replayed through the ``fsrs`` package with that grade appended, as ``POST`` would."""
    grades = model.learner.graded(node_id)
    since = _since(model, node_id)
    rules = model.limits.rules(node_id)
    return {grade: replay((*grades, Graded(model.now, grade)), since, rules=rules).due.isoformat()
            for grade in GRADES}


def after_today(model: LearnerModel) -> str | None:
    """When the first card outside today's queue is due: tomorrow's start when a card waits
    over a cap (a new card, or a review held back), else the earliest due date; None when
    there is no other card."""
    plan = model.plan
    queued = {d.node_id for d in plan.due}
    _, dusk = day_bounds(model.now, model.limits.day)
    later: list[datetime] = []
    for node_id, view in plan.cards.items():
        if node_id in queued or (view.reviews == 0 and model.limits.new_per_day == 0):
            continue
        if view.reviews == 0 or view.due < dusk:
            return dusk.isoformat()  # waiting for a later day's cap
        later.append(view.due)
    return min(later).astimezone(model.now.tzinfo).isoformat() if later else None


def planned_or_now(model: LearnerModel, node_id: str) -> Due:
    """The node's place in today's queue, or its card now (``NotFound`` for an unknown node)."""
    for item in model.plan.due:
        if item.node_id == node_id:
            return item
    view: CardView = model.card(node_id)
    kind: Literal["new", "review", "learning"] = (
        "new" if view.reviews == 0
        else "learning" if view.phase in ("learning", "relearning") else "review")
    r = retrievability(view, model.now, model.limits.desired_retention)
    return Due(node_id, kind, view, r, overdue=False)
