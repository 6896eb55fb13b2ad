"""The learner model as data: the JSON shapes of ``GET /api/review``, ``POST /api/review/{id}``,
``GET /api/mastery/{id}`` and ``GET /api/stats`` (and of ``studyhall review|stats --json``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from studyhall.core.library.graph.view import GraphSnapshot
from studyhall.core.library.learner import rollup
from studyhall.core.library.learner.cards import replay, retrievability
from studyhall.core.library.learner.evidence import first_quote
from studyhall.core.library.learner.mastery import Score, topic_score
from studyhall.core.library.learner.memory import assertion_json
from studyhall.core.library.learner.model import LearnerModel
from studyhall.core.library.learner.queue import Due, forecast
from studyhall.core.library.learner.statements import is_topic
from studyhall.core.library.learner.stats import mastery_over_time, retention

STATS_DAYS = 30


def _score(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def queue_json(model: LearnerModel, limit: int) -> dict[str, Any]:
    plan = model.plan
    return {"due": [due_json(model, item) for item in plan.due[:limit]],
            "counts": {"due_today": len(plan.due), "new_today": plan.new_today,
                       "overdue": plan.overdue}}


def due_json(model: LearnerModel, item: Due) -> dict[str, Any]:
    """One card of the queue: its prompt, the answer to reveal, and where it stands."""
    node = model.node(item.node_id)
    prompt = model.prompt(item.node_id)
    mastery = model.score(item.node_id)
    return {
        "node_id": item.node_id,
        "prompt": prompt.prompt,
        "kind": prompt.kind,  # cloze | recall | question
        "state": mastery.state,
        "retrievability": _score(item.retrievability),
        "due_at": item.view.due.isoformat(),
        "answer": prompt.answer,
        "text": node.text,
        "topic": node.text if is_topic(node) else None,  # a note's title: which note it asks
        "evidence": prompt.evidence or first_quote(node),
        "queue": item.kind,  # new | review | learning
        "card": item.view.phase,
        "overdue": item.overdue,
        "mastery": mastery.value,
    }


def fsrs_json(model: LearnerModel, node_id: str) -> dict[str, Any]:
    """A node's FSRS state, read-only: its grades replayed now, this card alone (a node never
    graded has no stability, difficulty or due date yet)."""
    model.node(node_id)
    view = replay(model.learner.graded(node_id), model.now, rules=model.limits.rules(node_id))
    return {"stability": view.card.stability, "difficulty": view.card.difficulty,
            "due_at": view.due.isoformat() if view.reviews else None, "reviews": view.reviews}


def card_json(model: LearnerModel, node_id: str) -> dict[str, Any]:
    """A node's card and mastery, as the answer to a grade."""
    view = model.card(node_id)
    mastery = model.score(node_id)
    return {
        "node_id": node_id,
        "due_at": view.due.isoformat(),
        "stability": view.card.stability,
        "difficulty": view.card.difficulty,
        "mastery": mastery.value,
        "state": mastery.state,
        "card": view.phase,
        "reviews": view.reviews,
        "retrievability": _score(retrievability(view, model.now,
                                                model.limits.desired_retention)),
    }


def mastery_json(model: LearnerModel, node_id: str) -> dict[str, Any]:
    mastery = model.score(node_id)
    view = model.card(node_id)
    due_ids = {d.node_id for d in model.plan.due}
    return {
        "node_id": node_id,
        "mastery": mastery.value,
        "state": mastery.state,
        "due": node_id in due_ids,
        "suspended": node_id in model.learner.suspended,  # out of review, by the learner
        "due_at": view.due.isoformat() if view.reviews else None,
        "card": view.phase,  # new, learning, review, relearning: FSRS's phase of the card
        "retrievability": _score(retrievability(view, model.now,
                                                model.limits.desired_retention)),
        "explanation": [
            {"at": s.signal.at.isoformat(), "kind": s.signal.kind,
             "detail": _capital(f"{s.describe()} → {s.after:.2f}"),
             "before": round(s.before, 4), "after": round(s.after, 4)}
            for s in mastery.steps()
        ],
        # What the learner said here and may take back (undo), newest first.
        "assertions": [assertion_json(a) for a in
                       sorted(model.learner.assertions.get(node_id, ()), key=lambda a: a.at,
                              reverse=True)],
    }


def stats_json(model: LearnerModel) -> dict[str, Any]:
    plan = model.plan
    zone = model.now.tzinfo
    assert zone is not None  # the caller's clock is aware
    days = [plan.today - timedelta(days=k) for k in range(STATS_DAYS - 1, -1, -1)]
    scores = {n.id: model.score(n.id) for n in model.snapshot.nodes}
    tried = [s for s in scores.values() if s.value is not None]
    counts = {state: sum(1 for s in scores.values() if s.state == state)
              for state in ("solid", "shaky", "not-tried", "corrected-misconception")}
    kept = retention(((model.learner.graded(r.node_id), plan.cards[r.node_id])
                      for r in model.reviewables if r.grades),
                     model.now, model.limits.desired_retention)
    return {
        "today": plan.today.isoformat(),
        # ``topics``: the map's (a note's, a session's, a deck level's); the rest are ideas.
        "totals": {"nodes": len(scores), "tried": len(tried),
                   "topics": sum(1 for n in model.snapshot.nodes if rollup.is_topic(n)),
                   "reviewable": len(model.reviewables), **counts,
                   "due_today": len(plan.due), "new_today": plan.new_today,
                   "overdue": plan.overdue},
        "mastery_over_time": [
            {"date": d.day.isoformat(), "mean": d.mean, "solid": d.solid, "shaky": d.shaky,
             "tried": d.tried}
            for d in mastery_over_time(scores.values(), days, zone)],
        "reviews_due": [
            {"date": d.day.isoformat(), "due": d.due, "planned": d.planned}
            for d in forecast(plan, model.limits, STATS_DAYS)],
        "retention": {
            "target": kept.target, "achieved": kept.achieved, "reviews": kept.reviews,
            "weeks": [{"start": w.start.isoformat(), "reviews": w.reviews,
                       "achieved": w.achieved} for w in kept.weeks]},
        "topics": _topics(model.snapshot, scores),
    }


def _topics(snapshot: GraphSnapshot, scores: dict[str, Score]) -> list[dict[str, Any]]:
    """Each cluster of the graph as a topic: its mastery from its parts."""
    out = []
    for cluster in snapshot.clusters:
        parts = [scores[n] for n in cluster.node_ids if n in scores]
        topic = topic_score(parts)
        out.append({"id": cluster.id, "label": cluster.label, "mastery": topic.value,
                    "state": topic.state, "parts": topic.parts, "tried": topic.tried})
    return out


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
