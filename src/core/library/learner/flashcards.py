"""The learner's kept flashcards as they stand: every card kept and not retired, per node, and
which one a review of the node shows.

A card belongs to an artifact (a flashcards artifact, or an imported Anki deck). Retiring an
artifact retires the cards it had then: each card carries its artifact's *generation* (how
many retirements came before it was kept), and a card is live while no retirement of its
generation exists — an order that needs no clock (two records in the same instant are fine).
Several live cards on one node take turns, newest first: the node's n-th review shows card
``n mod count``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping

from studyhall.core.contracts.learner import FlashcardKept, FlashcardsRetired


def flashcard_id(artifact_id: str, generation: int, node_id: str, front: str, back: str) -> str:
    """The card's id: the same card kept again (same artifact, generation, node and text) is
    the same record, so keeping an artifact twice adds nothing."""
    raw = "\x1f".join((artifact_id, str(generation), node_id, front, back))
    return "fc_" + hashlib.sha256(raw.encode("utf-8")).hexdigest()[:24]


def retirement_id(artifact_id: str, generation: int) -> str:
    raw = f"{artifact_id}\x1f{generation}"
    return "fcr_" + hashlib.sha256(raw.encode("utf-8")).hexdigest()[:24]


class Flashcards:
    """The ledgers read once: live cards by node (newest first) and by artifact."""

    def __init__(self, kept: Iterable[FlashcardKept] = (),
                 retired: Iterable[FlashcardsRetired] = (),
                 follow: Mapping[str, str] | None = None) -> None:
        """``follow``: absorbed node -> the node it now is (a card kept on a heading node is
        the note topic's card once the heading is folded into it)."""
        follow = follow or {}
        self.retirements: dict[str, int] = {}  # artifact → generations retired
        for r in retired:
            self.retirements[r.artifact_id] = max(self.retirements.get(r.artifact_id, 0),
                                                  r.generation + 1)
        self.by_node: dict[str, list[FlashcardKept]] = {}
        self.by_artifact: dict[str, list[FlashcardKept]] = {}
        self.known_ids: set[str] = set()
        for card in kept:
            self.known_ids.add(card.id)
            if card.generation < self.retirements.get(card.artifact_id, 0):
                continue  # its artifact was retired after it was kept
            self.by_node.setdefault(follow.get(card.node_id, card.node_id), []).append(card)
            self.by_artifact.setdefault(card.artifact_id, []).append(card)
        for cards in self.by_node.values():
            cards.sort(key=lambda c: (c.at, c.id), reverse=True)

    def generation(self, artifact_id: str) -> int:
        """The generation a card of this artifact kept now belongs to."""
        return self.retirements.get(artifact_id, 0)

    def on(self, node_id: str) -> tuple[FlashcardKept, ...]:
        return tuple(self.by_node.get(node_id, ()))

    def shown(self, node_id: str, reviews: int) -> FlashcardKept | None:
        """The card a review of the node shows after ``reviews`` grades (None: no card)."""
        cards = self.by_node.get(node_id)
        return cards[reviews % len(cards)] if cards else None
