"""``LearnerModel``: one consistent read of what the learner knows, at one moment — the graph
snapshot and the learner ledgers combined into per-node scores, FSRS cards, today's queue and
review prompts. Pure: the time, the limits and the evidence are given; nothing is stored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from functools import cached_property

from studyhall.core.contracts.learner import ReviewQuestionWritten
from studyhall.core.errors import NotFound
from studyhall.core.library.graph.view import GraphSnapshot, SnapshotNode
from studyhall.core.library.learner.cards import CardView, replay
from studyhall.core.library.learner.evidence import (
    LearnerEvidence,
    all_signals,
    reviewables,
)
from studyhall.core.library.learner.mastery import Score, score
from studyhall.core.library.learner.prompts import Prompt, TermWeights, review_prompt
from studyhall.core.library.learner.queue import DayPlan, Limits, Reviewable, plan_day


class LearnerModel:
    def __init__(self, snapshot: GraphSnapshot, learner: LearnerEvidence, now: datetime,
                 limits: Limits, weights: Callable[[], TermWeights] | None = None,
                 questions: Mapping[str, ReviewQuestionWritten] | None = None) -> None:
        self.snapshot = snapshot
        self.learner = learner
        self.now = now
        self.limits = limits
        self._weights = weights or (lambda: TermWeights(n.text for n in snapshot.nodes))
        self._scores: dict[str, Score] = {}
        self.questions = questions or {}  # node id → its stored, checked model question

    def node(self, node_id: str) -> SnapshotNode:
        return require_node(self.snapshot, node_id)

    def score(self, node_id: str) -> Score:
        """The node's mastery from all its evidence (the graph's and the learner ledgers')."""
        known = self._scores.get(node_id)
        if known is None:
            node = self.node(node_id)
            if node_id in self.learner.signals:
                known = score(all_signals(node, self.learner.signals))
            else:  # the fold's own score; an untried node's without decoding its trail
                known = node.score if node.value is not None else score(())
            self._scores[node_id] = known
        return known

    @cached_property
    def reviewables(self) -> list[Reviewable]:
        return reviewables(self.snapshot, self.learner)

    @cached_property
    def plan(self) -> DayPlan:
        return plan_day(self.reviewables, self.now, self.limits, self._ancestors())

    def card(self, node_id: str) -> CardView:
        """The node's FSRS card now (a node never reviewed has a new card, due now)."""
        known = self.plan.cards.get(node_id)
        if known is not None:
            return known
        self.node(node_id)
        return replay(self.learner.graded(node_id), self.now,
                      rules=self.limits.rules(node_id))

    def prompt(self, node_id: str) -> Prompt:
        """The learner's kept flashcard when the node has one (several take turns), else its
        stored model question, else a model-free prompt."""
        card = self.learner.flashcards.shown(node_id, self.card(node_id).reviews)
        if card is not None:
            self.node(node_id)
            return Prompt("flashcard", card.front, card.back, card.evidence)
        stored = self.questions.get(node_id)
        if stored is not None:
            self.node(node_id)
            return Prompt("question", stored.question, stored.answer, stored.evidence_quote)
        return review_prompt(self.node(node_id).text, self.weights, self.card(node_id).reviews)

    @cached_property
    def weights(self) -> TermWeights:
        return self._weights()

    def _ancestors(self) -> Callable[[str], Sequence[str]]:
        follows = [(e.source, e.target) for e in self.snapshot.edges if e.kind == "follows"]
        if not follows:
            return lambda _: ()
        from studyhall.core.library.learner.prerequisites import PrerequisiteGraph

        return PrerequisiteGraph(follows).ancestors


def require_node(snapshot: GraphSnapshot, node_id: str) -> SnapshotNode:
    """The node, or ``NotFound`` saying where node ids come from."""
    node = snapshot.node(node_id)
    if node is None:
        raise NotFound(f"No node {node_id!r} in the knowledge graph. Pick one from "
                       "GET /api/graph or the review queue.")
    return node
