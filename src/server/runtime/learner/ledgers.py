"""``LearnerLedgers``: the only writer of the learner ledgers (review grades, the teacher's
validated observations, "Quiz me" answers, kept flashcards; stored review questions are
``questions.py``'s) and the one read of the learner's state, behind the ``Learner`` façade.

Every read builds a ``LearnerModel`` (core) from the graph read and the learner ledgers at this
moment: mastery, FSRS cards, today's queue and the statistics are derived there, never stored.
Days are learner days: local time, from the hour ``day_starts_hour``. Methods are synchronous (file reads, replays):
callers run them off the event loop.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from studyhall.core.contracts.anki_deck import AnkiDeckOptions
from studyhall.core.contracts.learner import (
    ASSERTION_KINDS,
    GRADES,
    LEARNER_LEVELS,
    AssertionRetracted,
    CardSuspended,
    FlashcardKept,
    FlashcardsRetired,
    GradeUndone,
    LearnerAsserted,
    LearnerObserved,
    PromptKind,
    ReviewGraded,
    ReviewQuestionWritten,
    SourceQuizAnswered,
)
from studyhall.core.contracts.settings import DeckReview
from studyhall.core.errors import InvalidInput, NotFound
from studyhall.core.library.graph.view import GraphSnapshot, SnapshotNode
from studyhall.core.library.learner.deck import Deck
from studyhall.core.library.learner.evidence import LearnerEvidence
from studyhall.core.library.learner.flashcards import Flashcards, flashcard_id, retirement_id
from studyhall.core.library.learner.learner_day import LearnerDay, deck_rules
from studyhall.core.library.learner.memory import plain_note
from studyhall.core.library.learner.model import LearnerModel, require_node
from studyhall.core.library.learner.overlay import LearnerOverlay
from studyhall.core.library.learner.prompts import TermWeights
from studyhall.core.library.learner.queue import Limits
from studyhall.core.library.learner.report import (
    card_json,
    due_json,
    fsrs_json,
    mastery_json,
    queue_json,
    stats_json,
)
from studyhall.core.ports.storage import LearnerStore, SettingsStore
from studyhall.core.ports.system import Clock, Ids
from studyhall.server.runtime.learner.preview import after_today, next_due, planned_or_now
from studyhall.server.runtime.library.graph_reader import GraphReader

MAX_QUEUE = 1000
FRONT_MAX, BACK_MAX, QUOTE_MAX = 4000, 8000, 4000  # a longer side is cut (the record's limits)


class LearnerLedgers:
    def __init__(self, *, graph: GraphReader, learner_store: LearnerStore,
                 settings_store: SettingsStore, clock: Clock, ids: Ids) -> None:
        self._graph = graph
        self._store = learner_store
        self._settings = settings_store
        self._clock = clock
        self._ids = ids
        self._overlay = LearnerOverlay()
        self._weights: tuple[tuple[SnapshotNode, ...], TermWeights] | None = None
        self._deck: tuple[tuple[SnapshotNode, ...], Deck] | None = None
        self._lock = threading.Lock()  # the caches above; reads come from worker threads
        self._cards_lock = threading.Lock()  # one keep/retire at a time: ids stay unique

    # --- reads -----------------------------------------------------------------------------

    def model(self, base: GraphSnapshot | None = None) -> LearnerModel:
        """The learner's state now, over ``base`` (the app's graph read when not given)."""
        snapshot = base if base is not None else self._graph.snapshot()
        learner = self._evidence(snapshot)
        stored = stored_questions(self._store, snapshot.absorbed)  # none: model-free
        return LearnerModel(snapshot, learner, self._now(), self._limits(),
                            weights=lambda: self._term_weights(snapshot), questions=stored,
                            deck=lambda: self._model_free_deck(snapshot))

    def queue(self, limit: int = 20, base: GraphSnapshot | None = None) -> dict[str, Any]:
        """``GET /api/review``: today's queue (the first ``limit`` cards) and its counts; each
        card with ``next`` (the due date each grade would give), and ``next_due_at``."""
        if not 1 <= limit <= MAX_QUEUE:
            raise InvalidInput(f'"limit" must be from 1 to {MAX_QUEUE}.')
        model = self.model(base)
        out = queue_json(model, limit)
        for item in out["due"]:
            item["next"] = next_due(model, item["node_id"])
        out["next_due_at"] = after_today(model)
        out["suspended"] = _suspended(model)
        return out

    def uncarded(self) -> list[str]:
        """Studied topics with no card worth reviewing (``LearnerModel.uncarded``)."""
        return self.model().uncarded

    def card(self, node_id: str) -> dict[str, Any]:
        """``GET /api/review?node=ID``: that node's card now, due or not ("Review now"), in the
        queue's shape; ``counts`` are today's queue's."""
        model = self.model()
        out = queue_json(model, 1)
        out["due"] = [{**due_json(model, planned_or_now(model, node_id)),
                       "next": next_due(model, node_id),
                       **{k: v for k, v in fsrs_json(model, node_id).items() if k != "due_at"}}]
        out["next_due_at"] = after_today(model)
        out["suspended"] = _suspended(model)
        return out

    def fsrs_state(self, node_id: str) -> dict[str, Any]:
        """A node's FSRS state now, read-only: stability, difficulty, due_at, reviews."""
        return fsrs_json(self.model(), node_id)

    def mastery(self, node_id: str) -> dict[str, Any]:
        """``GET /api/mastery/{id}``: the score, its state and every event that made it."""
        return mastery_json(self.model(), node_id)

    def stats(self, base: GraphSnapshot | None = None) -> dict[str, Any]:
        """``GET /api/stats``: mastery over time, reviews due per day, retention vs target."""
        return stats_json(self.model(base))

    def graph_with_evidence(self, base: GraphSnapshot | None = None) -> GraphSnapshot:
        """The graph with the learner ledgers' evidence in its nodes' states and scores."""
        snapshot = base if base is not None else self._graph.snapshot()
        learner = self._evidence(snapshot)
        with self._lock:
            return self._overlay.apply(snapshot, learner.signals)

    def out_of_review(self, snapshot: GraphSnapshot) -> set[str]:
        """The nodes whose cards the learner took out of review (only that ledger is read)."""
        return LearnerEvidence(follow=snapshot.absorbed,
                               suspensions=self._store.suspensions().records).suspended

    # --- writes ----------------------------------------------------------------------------

    def grade(self, node_id: str, grade: str,
              prompt_kind: PromptKind | None = None) -> dict[str, Any]:
        """Record a review grade; the node's new card and mastery (``POST /api/review/{id}``)."""
        if grade not in GRADES:
            raise InvalidInput(f"Unknown grade {grade!r}: use one of {', '.join(GRADES)}.")
        snapshot = self._graph.snapshot()
        require_node(snapshot, node_id)  # NotFound for a node the graph does not hold
        graded = ReviewGraded(id=self._ids.new("rev"), node_id=node_id, grade=grade,
                              prompt_kind=prompt_kind, at=self._clock.now())
        self._store.append_grades([graded])
        # The model is built once, after; the grade's id is what an undo names.
        return {**card_json(self.model(snapshot), node_id), "grade_id": graded.id}

    def undo_grade(self, grade_id: str) -> dict[str, Any]:
        """Take a review grade back (``DELETE /api/grades/{id}``): the card is replayed
        without it. Its node's card after; a second undo of the same grade adds nothing."""
        graded = next((g for g in self._store.grades().records if g.id == grade_id), None)
        if graded is None:
            raise NotFound(f"There is no review grade {grade_id!r} to take back.")
        snapshot = self._graph.snapshot()
        node_id = snapshot.absorbed.get(graded.node_id, graded.node_id)
        require_node(snapshot, node_id)  # NotFound when its topic has left the graph
        # One id per grade: undoing twice is a replay the ledger ignores.
        self._store.append_undone([GradeUndone(id=f"undo_{grade_id}", grade_id=grade_id,
                                               at=self._clock.now())])
        return {**card_json(self.model(snapshot), node_id), "grade_id": None}

    def suspend(self, node_id: str, suspended: bool) -> dict[str, Any]:
        """Take the node's card out of review, or put it back (``PUT /api/cards/{id}``): its
        grades and mastery stay; only the queue and the forecast leave it out."""
        snapshot = self._graph.snapshot()
        require_node(snapshot, node_id)
        self._store.append_suspensions([CardSuspended(
            id=self._ids.new("sus"), node_id=node_id, suspended=suspended, at=self._clock.now())])
        return {"node_id": node_id, "suspended": suspended}

    def suspend_from_anki(self, node_ids: Sequence[str]) -> None:
        """Cards an Anki deck holds suspended, out of review here too: one record per node
        ever (a replayed import adds nothing, so a card put back here is not taken out again)."""
        now = self._clock.now()
        self._store.append_suspensions([CardSuspended(
            id=f"sus_anki_{node_id}", node_id=node_id, suspended=True, at=now)
            for node_id in dict.fromkeys(node_ids)])

    def observe(self, node_id: str, level: str, note: str = "",
                source_id: str | None = None) -> dict[str, Any]:
        """Record the teacher's observation of the learner on a node (proposed through a
        validated tool: the code decides what it changes). The node's mastery after it."""
        if level not in LEARNER_LEVELS:
            raise InvalidInput(f"Unknown level {level!r}: use one of "
                               f"{', '.join(LEARNER_LEVELS)}.")
        if len(note) > 500:
            raise InvalidInput("An observation's note is one sentence: at most 500 characters.")
        snapshot = self._graph.snapshot()
        require_node(snapshot, node_id)
        self._store.append_observations([LearnerObserved(
            id=self._ids.new("lob"), node_id=node_id, level=level,
            note=note, source_id=source_id, at=self._clock.now())])
        return mastery_json(self.model(snapshot), node_id)

    def assert_(self, node_id: str, claim: str, note: str = "") -> str:
        """Append what the learner said of a node (the learner's own request: no model tool
        reaches this). The new assertion's id."""
        if claim not in ASSERTION_KINDS:
            raise InvalidInput(f"Unknown assertion {claim!r}: use one of "
                               f"{', '.join(ASSERTION_KINDS)}.")
        note = plain_note(note)
        snapshot = self._graph.snapshot()
        require_node(snapshot, node_id)
        said = LearnerAsserted(id=self._ids.new("las"), node_id=node_id, claim=claim,
                               note=note, at=self._clock.now())
        self._store.append_assertions([said])
        return said.id

    def assertion(self, node_id: str, assertion_id: str
                  ) -> tuple[LearnerAsserted, AssertionRetracted | None]:
        """An assertion on that node, and its retraction if it was taken back (``NotFound``
        for a node the graph does not hold, or an assertion not on it)."""
        snapshot = self._graph.snapshot()
        require_node(snapshot, node_id)
        follow = snapshot.absorbed
        said = next((a for a in self._store.assertions().records if a.id == assertion_id
                     and follow.get(a.node_id, a.node_id) == node_id), None)
        if said is None:
            raise NotFound(f"No assertion {assertion_id!r} on this topic: the topic's mastery "
                           "(GET /api/mastery/{id}) lists the ones you can take back.")
        taken = next((r for r in self._store.retractions().records
                      if r.assertion_id == assertion_id), None)
        return said, taken

    def retract(self, node_id: str, assertion_id: str) -> None:
        """Take an assertion on that node back (an appended retraction; a second undo adds
        nothing)."""
        self.assertion(node_id, assertion_id)
        # One id per assertion: undoing twice is a replay the ledger ignores.
        self._store.append_retractions([AssertionRetracted(
            id=f"ret_{assertion_id}", assertion_id=assertion_id, at=self._clock.now())])

    def record_quiz(self, records: list[SourceQuizAnswered]) -> None:
        """Append "Quiz me" answers (already graded by the server, on nodes the graph holds)."""
        self._store.append_quiz_answers(records)

    def record_grades(self, records: Sequence[ReviewGraded]) -> int:
        """Append grades given elsewhere (an Anki deck's review history), each id once: a
        replayed import adds nothing. How many were new."""
        known = {g.id for g in self._store.grades().records}
        fresh = list({g.id: g for g in records if g.id not in known}.values())
        if fresh:
            self._store.append_grades(fresh)
        return len(fresh)

    def keep_flashcards(self, artifact_id: str,
                        cards: Sequence[Mapping[str, str | None]]) -> int:
        """Keep an artifact's cards (``node_id``, ``front``, ``back``, ``evidence``?) in the
        review queue; a card with no node, or a node the graph does not hold, or an empty
        side, is not queued. Keeping the same cards again adds nothing. How many joined."""
        if not artifact_id.strip():
            raise InvalidInput("A flashcard needs the id of the artifact it was kept from.")
        snapshot = self._graph.snapshot()
        with self._cards_lock:
            kept = self._flashcards()
            generation = kept.generation(artifact_id)
            now = self._clock.now()
            fresh: dict[str, FlashcardKept] = {}
            for card in cards:
                node_id, front, back = (_side(card, k) for k in ("node_id", "front", "back"))
                if not (node_id and front and back) or snapshot.node(node_id) is None:
                    continue
                front, back = front[:FRONT_MAX], back[:BACK_MAX]
                card_id = flashcard_id(artifact_id, generation, node_id, front, back)
                if card_id in kept.known_ids or card_id in fresh:
                    continue
                fresh[card_id] = FlashcardKept(
                    id=card_id, artifact_id=artifact_id, node_id=node_id, front=front,
                    back=back, evidence=_side(card, "evidence")[:QUOTE_MAX] or None,
                    generation=generation, at=now)
            if fresh:
                self._store.append_flashcards(list(fresh.values()))
        return len(fresh)

    def retire_flashcards(self, artifact_id: str) -> None:
        """Take every card of the artifact out of the review queue (its grades stay)."""
        with self._cards_lock:
            kept = self._flashcards()
            if artifact_id not in kept.by_artifact:
                return  # nothing of it is queued: retiring twice adds nothing
            generation = kept.generation(artifact_id)
            self._store.append_retirements([FlashcardsRetired(
                id=retirement_id(artifact_id, generation), artifact_id=artifact_id,
                generation=generation, at=self._clock.now())])

    def adopt_deck_options(self, options: Sequence[AnkiDeckOptions],
                           day_starts_hour: int | None) -> None:
        """Each deck's FSRS options into ``review_decks`` (a deck imported again takes its
        collection's current ones), and the collection's day start when it has one."""
        decks = {o.deck: DeckReview(parameters=list(o.parameters),
                                    desired_retention=o.desired_retention) for o in options}
        if not decks and day_starts_hour is None:
            return
        self._settings.update(lambda s: s.model_copy(update={
            "review_decks": {**s.review_decks, **decks},
            "day_starts_hour": s.day_starts_hour if day_starts_hour is None else day_starts_hour}))

    # --- helpers ---------------------------------------------------------------------------

    def _evidence(self, snapshot: GraphSnapshot) -> LearnerEvidence:
        return LearnerEvidence(self._store.grades().records, self._store.observations().records,
                               self._store.quiz_answers().records,
                               self._store.flashcards().records,
                               self._store.retirements().records, follow=snapshot.absorbed,
                               assertions=self._store.assertions().records,
                               retractions=self._store.retractions().records,
                               undone=self._store.undone().records,
                               suspensions=self._store.suspensions().records)

    def _flashcards(self) -> Flashcards:
        return Flashcards(self._store.flashcards().records, self._store.retirements().records)

    def _now(self) -> datetime:
        """Now, in the local time zone: its calendar days are the ones the caps count."""
        return self._clock.now().astimezone()

    def _limits(self) -> Limits:
        s = self._settings.load()
        day = LearnerDay(s.day_starts_hour, self._now().tzinfo or UTC)
        return Limits(s.new_cards_per_day, s.reviews_per_day, s.desired_retention, day,
                      deck_rules(s.review_decks, self._flashcards()))

    def _term_weights(self, snapshot: GraphSnapshot) -> TermWeights:
        # Counted once per graph: the fold hands out the same nodes tuple until a node changes.
        with self._lock:
            if self._weights is not None and self._weights[0] is snapshot.nodes:
                return self._weights[1]
        weights = TermWeights(n.text for n in snapshot.nodes)
        with self._lock:
            self._weights = (snapshot.nodes, weights)
        return weights


    def _model_free_deck(self, snapshot: GraphSnapshot) -> Deck:
        # Built once per graph, as the weights are: every topic's statements are read for it.
        with self._lock:
            if self._deck is not None and self._deck[0] is snapshot.nodes:
                return self._deck[1]
        deck = Deck(snapshot.nodes)
        with self._lock:
            self._deck = (snapshot.nodes, deck)
        return deck


def stored_questions(store: LearnerStore, follow: Mapping[str, str] | None = None
                     ) -> dict[str, ReviewQuestionWritten]:
    """Node id → its question (the first kept; later ones for the same node are ignored).
    ``follow``: absorbed node → the node it now is (``GraphSnapshot.absorbed``)."""
    out: dict[str, ReviewQuestionWritten] = {}
    for record in store.questions().records:
        node_id = record.node_id if follow is None else follow.get(record.node_id, record.node_id)
        out.setdefault(node_id, record)
    return out


def _side(card: Mapping[str, str | None], key: str) -> str:
    value = card.get(key)
    return value.strip() if isinstance(value, str) else ""


def _suspended(model: LearnerModel) -> list[dict[str, str]]:
    """The cards the learner took out of review, by their text (the ones the graph holds)."""
    held = [node for n in model.learner.suspended
            if (node := model.snapshot.node(n)) is not None]
    return [{"node_id": n.id, "text": n.text} for n in sorted(held, key=lambda n: n.text.lower())]
