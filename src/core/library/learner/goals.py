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

import bisect
import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from studyhall.core.contracts.plan import Plan
from studyhall.core.library.extraction.nearest import words
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
    """For each step (id → label) the node its label names: the best ``text_score`` at ≥
    ``LABEL_MATCH_AT``, among equals the shortest text (the most name-like), then the id.

    Only candidates are scored, found without reading every node per label: the nodes whose
    text holds the label whole (found in one joined text), and — since a word match scores ≥ 0.6
    only with at least ¾ of the label's words — the nodes holding one of its rarest
    ``n - need + 1`` words. ``tests/unit/test_goal_progress.py`` holds it to scoring all."""
    by_word: dict[str, list[int]] = {}
    folded: list[tuple[str, set[str]]] = []  # each node's text as text_score reads it
    for k, (_, text) in enumerate(nodes):
        have = words(text)
        folded.append((" ".join(text.split()).casefold(), have))
        for w in have:
            by_word.setdefault(w, []).append(k)
    joined = "\n".join(f for f, _ in folded)  # no folded text holds a newline
    starts = list(itertools.accumulate((len(f) + 1 for f, _ in folded[:-1]), initial=0))
    found: dict[str, str | None] = {}
    for step, label in labels.items():
        query = " ".join(label.split()).casefold()
        wanted_set = words(label)
        wanted = sorted(wanted_set, key=lambda w: (len(by_word.get(w, ())), w))
        need = math.ceil(len(wanted) * LABEL_MATCH_AT / 0.8)
        candidates = {k for w in wanted[: len(wanted) - need + 1] for k in by_word.get(w, ())}
        at = joined.find(query) if query else -1
        while at != -1:
            k = bisect.bisect_right(starts, at) - 1
            candidates.add(k)
            at = joined.find(query, starts[k] + len(folded[k][0]) + 1)
        best: tuple[float, int, str] | None = None
        for k in candidates:
            text, have = folded[k]
            score = 1.0 if query in text else (
                0.8 * len(wanted_set & have) / len(wanted_set) if wanted_set else 0.0)
            if score < LABEL_MATCH_AT:
                continue
            key = (-score, len(nodes[k][1]), nodes[k][0])
            if best is None or key < best:
                best = key
        found[step] = None if best is None else best[2]
    return found
