"""The learner's standing near a session's topic, for the teacher's opening context: the weak
concepts, those due for review, the gaps (concepts whose prerequisites are not yet learnt,
so hard questions on them will be refused) and the live misconception patterns (the same wrong
answer again and again, ``misconceptions.py``), one short line each. Pure: a ``LearnerModel`` and the nearby node ids in.

A gap is named only where the learner has started — the concept or a blocking prerequisite has
evidence: in a neighbourhood nobody has studied yet every ordered pair is "gated", and saying so
would only tell the teacher to begin at the beginning.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from studyhall.core.library.learner import insight
from studyhall.core.library.learner.mastery import GATE_BELOW, gate, prerequisites
from studyhall.core.library.learner.misconceptions import Misconception
from studyhall.core.library.learner.model import LearnerModel

LIMIT = 5  # concepts per line
GAPS = 3
MISCONCEPTIONS = 3
NAME_CHARS = 60


@dataclass(frozen=True)
class NearStanding:
    weak: list[dict[str, Any]] = field(default_factory=list)
    due: list[dict[str, Any]] = field(default_factory=list)
    gaps: list[dict[str, Any]] = field(default_factory=list)
    misconceptions: list[dict[str, Any]] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = []
        if self.weak:
            out.append("Weak here (mastery below 0.8, weakest first): " + "; ".join(
                f"{_name(c)} {c['mastery']:.2f}" for c in self.weak) + ".")
        if self.due:
            out.append("Due for review: " + "; ".join(
                f"{_name(c)} mastery {_figure(c['mastery'])}, recall "
                f"{_figure(c['retrievability'], 'new card')}" for c in self.due) + ".")
        if self.gaps:
            out.append(f"Gaps — no hard questions until each prerequisite is at "
                       f"{GATE_BELOW:.1f}: " + "; ".join(
                           f"{_name(g)} needs " + ", ".join(
                               f"{_name(p)} (now {_figure(p['mastery'], 'not tried')})"
                               for p in g["needs"]) for g in self.gaps) + ".")
        for m in self.misconceptions:
            out.append(f"Misconception on {_name(m)}: {m['line']} — address it before moving on.")
        return out

    def data(self) -> dict[str, Any]:
        return {"weak": self.weak, "due": self.due, "gaps": self.gaps,
                "misconceptions": self.misconceptions}


def _name(concept: dict[str, Any]) -> str:
    text = concept["text"]
    if len(text) > NAME_CHARS:
        text = text[:NAME_CHARS].rsplit(" ", 1)[0] + "…"
    return f"“{text}” ({concept['node_id']})"


def _figure(value: float | None, missing: str = "—") -> str:
    return missing if value is None else f"{value:.2f}"


def near_standing(model: LearnerModel, among: Sequence[str], limit: int = LIMIT,
                  patterns: Sequence[Misconception] = ()) -> NearStanding:
    """Weak, due and gated concepts among ``among`` (nearest first), and the live
    misconception patterns on them (``patterns``: all of them, the latest first)."""
    if not among:
        return NearStanding()
    near = set(among)
    mixed = [{**insight.brief(model, m.node_id), "line": m.line, "times": m.times}
             for m in patterns if m.node_id in near][:MISCONCEPTIONS]
    weak = insight.weak(model, among, limit)
    due = insight.due(model, among, limit)["due"]
    follows = [(e.source, e.target) for e in model.snapshot.edges if e.kind == "follows"]
    before = prerequisites(follows) if follows else {}
    gaps = []
    for node_id in among:
        mine = [p for p in before.get(node_id, ()) if model.snapshot.node(p) is not None]
        if not mine or model.snapshot.node(node_id) is None:
            continue
        g = gate(node_id, {node_id: mine}, {p: model.score(p).value for p in mine})
        started = model.score(node_id).value is not None \
            or any(score is not None for _, score in g.blocking)
        if not g.ready and started:
            gaps.append({**insight.brief(model, node_id),
                         "needs": [insight.brief(model, p) for p, _ in g.blocking]})
            if len(gaps) >= GAPS:
                break
    return NearStanding(weak, due, gaps, mixed)
