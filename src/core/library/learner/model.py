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
from studyhall.core.library.learner.deck import Deck
from studyhall.core.library.learner.evidence import (
    LearnerEvidence,
    all_signals,
    reviewables,
)
from studyhall.core.library.learner.mastery import Score, score
from studyhall.core.library.learner.prompts import Prompt, TermWeights, review_prompt
from studyhall.core.library.learner.queue import DayPlan, Limits, Reviewable, plan_day
from studyhall.core.library.learner.statements import is_topic, statements


class LearnerModel:
    def __init__(self, snapshot: GraphSnapshot, learner: LearnerEvidence, now: datetime,
                 limits: Limits, weights: Callable[[], TermWeights] | None = None,
                 questions: Mapping[str, ReviewQuestionWritten] | None = None,
                 deck: Callable[[], Deck] | None = None) -> None:
        self.snapshot = snapshot
        self.learner = learner
        self.now = now
        self.limits = limits
        self._weights = weights or (lambda: TermWeights(n.text for n in snapshot.nodes))
        self._deck = deck or (lambda: Deck(snapshot.nodes))
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
        """Every node with something to review: a topic (one per note) only when it has a
        card worth reviewing — its own, a kept flashcard or a checked model question; a topic
        without one is studied through Quiz me, never shown as a junk card."""
        found = reviewables(self.snapshot, self.learner)
        if not any(is_topic(self.node(r.node_id)) for r in found):
            return found  # no topic to check: the deck is not built
        return [r for r in found if self.has_card(r.node_id)]

    @cached_property
    def uncarded(self) -> list[str]:
        """Studied topics left out of review for want of a card: with a model, each may get a
        checked question (and with it, a place in the queue)."""
        kept = {r.node_id for r in self.reviewables}
        return [r.node_id for r in reviewables(self.snapshot, self.learner)
                if r.node_id not in kept]

    def has_card(self, node_id: str) -> bool:
        if not is_topic(self.node(node_id)) or self.deck.cards(node_id):
            return True
        return bool(self.learner.flashcards.on(node_id)) or node_id in self.questions

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
        stored model question, else a model-free prompt — the same one on every visit (the
        topic's first card; a proposition's cloze): a grade is on one question, and the card's
        schedule is the schedule of that question until the material changes."""
        card = self.learner.flashcards.shown(node_id, self.card(node_id).reviews)
        if card is not None:
            self.node(node_id)
            return Prompt("flashcard", card.front, card.back, card.evidence)
        stored = self.questions.get(node_id)
        if stored is not None:
            self.node(node_id)
            return Prompt("question", stored.question, stored.answer, stored.evidence_quote)
        node = self.node(node_id)
        if not is_topic(node):
            return review_prompt(node.text, self.weights)
        cards = self.deck.cards(node_id)
        if cards:
            return cards[0].prompt
        return topic_recall(node)

    @cached_property
    def weights(self) -> TermWeights:
        return self._weights()

    @cached_property
    def deck(self) -> Deck:
        return self._deck()

    def _ancestors(self) -> Callable[[str], Sequence[str]]:
        follows = [(e.source, e.target) for e in self.snapshot.edges if e.kind == "follows"]
        if not follows:
            return lambda _: ()
        from studyhall.core.library.learner.prerequisites import PrerequisiteGraph

        return PrerequisiteGraph(follows).ancestors


def topic_recall(node: SnapshotNode, most: int = 3) -> Prompt:
    """"Review now" on a topic with no card: what its note says first, to recall by its name
    (the answer is the note's statements, never its title again)."""
    said = list(statements(node))[:most]
    answer = " ".join(s.text for s in said) or \
        "This note has no statement to recall yet: try Quiz me on it."
    return Prompt("recall", f"Recall what you know about “{node.text}”.", answer,
                  said[0].quote if said else None)


def require_node(snapshot: GraphSnapshot, node_id: str) -> SnapshotNode:
    """The node, or ``NotFound`` saying where node ids come from."""
    node = snapshot.node(node_id)
    if node is None:
        raise NotFound(f"No node {node_id!r} in the knowledge graph. Pick one from "
                       "GET /api/graph or the review queue.")
    return node
