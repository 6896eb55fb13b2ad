"""What the tutor may ask of the learner model, as data: strong and weak concepts and topics,
one concept's standing (with its prerequisite gate), where a score came from, and what is due.

Pure functions of one ``LearnerModel``; ``among`` narrows a question to some nodes (those near
the session's topic, say — the runtime finds them). Scores are rounded to two places: the
tutor reads them, and more digits would only suggest precision the estimate does not have.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from studyhall.core.library.learner.cards import replay, retrievability
from studyhall.core.library.learner.mastery import (
    GATE_BELOW,
    SOLID_AT,
    Score,
    TopicScore,
    gate,
    prerequisites,
    topic_score,
)
from studyhall.core.library.learner.model import LearnerModel

TEXT_CHARS = 160  # a concept's text, clipped, in a tool's answer


def clip(text: str, limit: int = TEXT_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "…"


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def brief(model: LearnerModel, node_id: str) -> dict[str, Any]:
    """A concept in a line: id, text, mastery, state."""
    s = model.score(node_id)
    return {"node_id": node_id, "text": clip(model.node(node_id).text),
            "mastery": _round(s.value), "state": s.state}


def _ids(model: LearnerModel, among: Sequence[str] | None) -> list[str]:
    if among is None:
        return [n.id for n in model.snapshot.nodes]
    return [i for i in dict.fromkeys(among) if model.snapshot.node(i) is not None]


def weak(model: LearnerModel, among: Sequence[str] | None = None,
         limit: int = 5) -> list[dict[str, Any]]:
    """Tried concepts below solid, weakest first (ties: the nearer one, as ``among`` ranks)."""
    ids = _ids(model, among)
    tried = [(model.score(i), k, i) for k, i in enumerate(ids)]
    shaky = [(s.value, k, i) for s, k, i in tried if s.value is not None and s.value < SOLID_AT]
    return [brief(model, i) for _, _, i in sorted(shaky)[:limit]]


def strengths(model: LearnerModel, among: Sequence[str] | None = None,
              limit: int = 5) -> dict[str, Any]:
    """``learning_strengths``: the strongest and weakest concepts and topics, and the counts."""
    ids = _ids(model, among)
    scores: dict[str, Score] = {i: model.score(i) for i in ids}
    solid = sorted((-(s.value or 0.0), i) for i, s in scores.items() if s.state == "solid")
    corrected = [i for i, s in scores.items() if s.state == "corrected-misconception"]
    ranked: list[tuple[float, str, TopicScore]] = []
    chosen = set(ids)
    for cluster in model.snapshot.clusters:
        t = topic_score([scores[i] for i in cluster.node_ids if i in chosen])
        if t.value is not None:
            ranked.append((-t.value, cluster.label or cluster.id, t))
    topics = [{"topic": name, "mastery": _round(t.value), "state": t.state, "parts": t.parts,
               "tried": t.tried} for _, name, t in sorted(ranked)]
    return {
        "strong": [brief(model, i) for _, i in solid[:limit]],
        "weak": weak(model, ids, limit),
        "corrected_misconceptions": [brief(model, i) for i in corrected[:limit]],
        "strong_topics": [t for t in topics if t["state"] == "solid"][:limit],
        "weak_topics": [t for t in reversed(topics) if t["state"] != "solid"][:limit],
        "counts": {state: sum(1 for s in scores.values() if s.state == state)
                   for state in ("solid", "shaky", "not-tried", "corrected-misconception")},
    }


def standing(model: LearnerModel, node_id: str) -> dict[str, Any]:
    """``concept_confidence`` for one node: its score, whether it is due, how much evidence it
    rests on, and whether hard questions on it are allowed yet (and what blocks them)."""
    s = model.score(node_id)
    follows = [(e.source, e.target) for e in model.snapshot.edges if e.kind == "follows"]
    before = prerequisites(follows)
    mine = [p for p in before.get(node_id, ()) if model.snapshot.node(p) is not None]
    g = gate(node_id, {node_id: mine}, {p: model.score(p).value for p in mine})
    # This card alone (the whole day plan would replay every card): due by FSRS once the node
    # is studied; today's queue may still hold it back under the daily caps.
    view = replay(model.learner.graded(node_id), model.now,
                  rules=model.limits.rules(node_id))
    studied = bool(s.signals)
    return {
        **brief(model, node_id),
        "evidence": len(s.signals),
        "due_for_review": studied and view.due <= model.now,
        "retrievability": _round(retrievability(view, model.now, model.limits.desired_retention)),
        "ready_for_hard_questions": g.ready,
        "blocked_by": [{**brief(model, p), "needs": GATE_BELOW} for p, _ in g.blocking],
    }


def explain(model: LearnerModel, node_id: str, limit: int = 20) -> dict[str, Any]:
    """``explain_score``: the score and the events that made it, newest first."""
    s = model.score(node_id)
    steps = [f"{step.describe()} → {step.after:.2f} (was {step.before:.2f})"
             for step in s.steps()]
    return {**brief(model, node_id), "events": len(steps),
            "explanation": steps[:limit] or ["no quiz answers, observations or reviews yet"],
            "rule": f"solid at ≥ {SOLID_AT:.1f}; hard questions need each prerequisite at "
                    f"≥ {GATE_BELOW:.1f}"}


def due(model: LearnerModel, among: Sequence[str] | None = None,
        limit: int = 5) -> dict[str, Any]:
    """``due_reviews``: today's due cards, in queue order, among ``among`` (all: None)."""
    wanted = None if among is None else set(among)
    items = [d for d in model.plan.due if wanted is None or d.node_id in wanted]
    return {
        "due": [{**brief(model, d.node_id), "retrievability": _round(d.retrievability),
                 "overdue": d.overdue, "new": d.kind == "new"} for d in items[:limit]],
        "due_here": len(items),
        "due_today": len(model.plan.due),
    }
