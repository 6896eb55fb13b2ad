"""A goal's progress, derived at every read (never stored): which of its plan's steps are solid,
and the step a new session resumes at.

A step stands for topic nodes of the graph: the nodes its quizzes in the goal's sessions were
graded on (quiz events of the quiz calls tagged with the step), and the node its label names
(a literal text match, the quiz gate's rule without vectors). A step is solid when it has such
a node and every one of them is solid (mastery ≥ ``SOLID_AT``). The next step is the first in
plan order that is not solid and whose prerequisites (edges into it) are; failing that, the
first not solid; None once every step is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from studyhall.core.contracts.plan import Plan
from studyhall.core.library.extraction.nearest import words
from studyhall.core.library.graph.node_search import text_score
from studyhall.core.library.learner.mastery import SOLID_AT, Score

LABEL_MATCH_AT = 0.6  # a step's label stands for a node this close (NodeFinder.MATCH_AT)


@dataclass(frozen=True)
class StepProgress:
    id: str
    label: str
    node_ids: tuple[str, ...]  # the topic nodes the step stands for
    mastery: float | None  # the weakest of them; None: one is untried, or there is none
    solid: bool

    def json(self) -> dict[str, Any]:
        return {"id": self.id, "label": self.label, "node_ids": list(self.node_ids),
                "mastery": None if self.mastery is None else round(self.mastery, 4),
                "solid": self.solid}


@dataclass(frozen=True)
class GoalProgress:
    steps: tuple[StepProgress, ...]
    next_index: int | None  # where a session resumes (index into ``steps``)

    @property
    def solid(self) -> int:
        return sum(1 for s in self.steps if s.solid)

    @property
    def next(self) -> StepProgress | None:
        return None if self.next_index is None else self.steps[self.next_index]

    def json(self) -> dict[str, Any]:
        at = self.next_index
        return {"solid": self.solid, "total": len(self.steps),
                "next": None if at is None else {**self.steps[at].json(), "number": at + 1},
                "steps": [s.json() for s in self.steps]}


def goal_progress(plan: Plan | None, quizzed: Mapping[str, Sequence[str]],
                  named: Mapping[str, str | None], score: Callable[[str], Score]) -> GoalProgress:
    """``quizzed``: step id → the nodes its tagged quizzes were graded on; ``named``: step id
    → the node its label names (``label_nodes``); ``score``: a node's mastery now."""
    if plan is None:
        return GoalProgress((), None)
    steps: list[StepProgress] = []
    for node in plan.nodes:
        ids = list(dict.fromkeys([*quizzed.get(node.id, ()),
                                  *([n] if (n := named.get(node.id)) else [])]))
        values = [score(i).value for i in ids]
        known = [v for v in values if v is not None]
        weakest = min(known) if ids and len(known) == len(values) else None
        solid = bool(ids) and weakest is not None and weakest >= SOLID_AT
        steps.append(StepProgress(node.id, node.label or node.id, tuple(ids), weakest, solid))
    solid_ids = {s.id for s in steps if s.solid}
    before: dict[str, set[str]] = {}
    for e in plan.edges:
        if e.kind != "open":  # an undirected line orders nothing
            before.setdefault(e.target, set()).add(e.source)
    open_steps = [k for k, s in enumerate(steps) if not s.solid]
    ready = [k for k in open_steps if before.get(steps[k].id, set()) <= solid_ids]
    at = ready[0] if ready else (open_steps[0] if open_steps else None)
    return GoalProgress(tuple(steps), at)


def label_nodes(labels: Mapping[str, str],
                nodes: Sequence[tuple[str, str]]) -> dict[str, str | None]:
    """For each step (id → label) the node its label names: the best literal match at ≥
    ``LABEL_MATCH_AT``, among equals the shortest text (the most name-like), then the id.
    Each node's words are read once for every label."""
    by_word: dict[str, list[int]] = {}
    for k, (_, text) in enumerate(nodes):
        for w in words(text):
            by_word.setdefault(w, []).append(k)
    found: dict[str, str | None] = {}
    for step, label in labels.items():
        candidates = {k for w in words(label) for k in by_word.get(w, ())}
        best: tuple[float, int, str] | None = None
        for k in candidates:
            node_id, text = nodes[k]
            s = text_score(label, text)
            if s < LABEL_MATCH_AT:
                continue
            key = (-s, len(text), node_id)
            if best is None or key < best:
                best = key
        found[step] = None if best is None else best[2]
    return found
