"""``JsonlLearnerStore``: the learner's append-only ledgers under ``learner/``.

    reviews.jsonl        review grades (ReviewGraded)
    reviews_undone.jsonl a grade taken back right after it was given (GradeUndone)
    cards_suspended.jsonl  a card taken out of review, or put back (CardSuspended)
    observations.jsonl   the teacher's validated observations (LearnerObserved)
    quiz_answers.jsonl   "Quiz me" answers on a source, per supported node (SourceQuizAnswered)
    questions.jsonl      model-written review questions that passed the evidence check
                         (ReviewQuestionWritten)
    flashcards.jsonl     flashcards the learner kept, from an artifact or an Anki deck
                         (FlashcardKept)
    flashcards_retired.jsonl  an artifact's cards taken out of the queue (FlashcardsRetired)
    assertions.jsonl     what the learner said of a topic: know / don't know / wrong
                         (LearnerAsserted)
    assertions_retracted.jsonl  an assertion taken back (AssertionRetracted)

Each is a ``JsonlLedger``: crash-safe appends (a torn line is skipped by readers, never glued to
the next record), tolerant incremental reads, replayed ids ignored. ``LearnerLedgers`` (behind
the ``Learner`` façade) is the only writer; mastery and card state are derived from these in
the core at every read.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from studyhall.adapters.store.ledger import JsonlLedger
from studyhall.adapters.store.ledger_methods import Ledger
from studyhall.core.contracts.learner import (
    AssertionRetracted,
    CardSuspended,
    FlashcardKept,
    FlashcardsRetired,
    GradeUndone,
    LearnerAsserted,
    LearnerObserved,
    ReviewGraded,
    ReviewQuestionWritten,
    SourceQuizAnswered,
)
from studyhall.core.contracts.ledger import LedgerRead


class LearnerLedgerMethods:
    """Mixin shared with the in-memory fake: the subclass sets the ten ledgers."""

    _grades: Ledger
    _undone: Ledger
    _suspensions: Ledger
    _observations: Ledger
    _quiz_answers: Ledger
    _questions: Ledger
    _flashcards: Ledger
    _retired: Ledger
    _assertions: Ledger
    _retractions: Ledger

    def append_grades(self, records: Sequence[ReviewGraded]) -> None:
        self._grades.append(records)

    def append_undone(self, records: Sequence[GradeUndone]) -> None:
        self._undone.append(records)

    def undone(self) -> LedgerRead[GradeUndone]:
        return self._undone.read()

    def append_suspensions(self, records: Sequence[CardSuspended]) -> None:
        self._suspensions.append(records)

    def suspensions(self) -> LedgerRead[CardSuspended]:
        return self._suspensions.read()

    def append_observations(self, records: Sequence[LearnerObserved]) -> None:
        self._observations.append(records)

    def append_quiz_answers(self, records: Sequence[SourceQuizAnswered]) -> None:
        self._quiz_answers.append(records)

    def append_questions(self, records: Sequence[ReviewQuestionWritten]) -> None:
        self._questions.append(records)

    def questions(self) -> LedgerRead[ReviewQuestionWritten]:
        return self._questions.read()

    def quiz_answers(self) -> LedgerRead[SourceQuizAnswered]:
        return self._quiz_answers.read()

    def grades(self) -> LedgerRead[ReviewGraded]:
        return self._grades.read()

    def observations(self) -> LedgerRead[LearnerObserved]:
        return self._observations.read()

    def append_flashcards(self, records: Sequence[FlashcardKept]) -> None:
        self._flashcards.append(records)

    def flashcards(self) -> LedgerRead[FlashcardKept]:
        return self._flashcards.read()

    def append_retirements(self, records: Sequence[FlashcardsRetired]) -> None:
        self._retired.append(records)

    def retirements(self) -> LedgerRead[FlashcardsRetired]:
        return self._retired.read()

    def append_assertions(self, records: Sequence[LearnerAsserted]) -> None:
        self._assertions.append(records)

    def assertions(self) -> LedgerRead[LearnerAsserted]:
        return self._assertions.read()

    def append_retractions(self, records: Sequence[AssertionRetracted]) -> None:
        self._retractions.append(records)

    def retractions(self) -> LedgerRead[AssertionRetracted]:
        return self._retractions.read()


class JsonlLearnerStore(LearnerLedgerMethods):
    def __init__(self, root: Path) -> None:
        self._root = Path(root)
        name = self._root.name
        self._grades: JsonlLedger[Any] = JsonlLedger(
            self._root / "reviews.jsonl", ReviewGraded, label=f"{name}/reviews.jsonl")
        self._undone: JsonlLedger[Any] = JsonlLedger(
            self._root / "reviews_undone.jsonl", GradeUndone, label=f"{name}/reviews_undone.jsonl")
        self._suspensions: JsonlLedger[Any] = JsonlLedger(
            self._root / "cards_suspended.jsonl", CardSuspended,
            label=f"{name}/cards_suspended.jsonl")
        self._observations: JsonlLedger[Any] = JsonlLedger(
            self._root / "observations.jsonl", LearnerObserved,
            label=f"{name}/observations.jsonl")
        self._quiz_answers: JsonlLedger[Any] = JsonlLedger(
            self._root / "quiz_answers.jsonl", SourceQuizAnswered,
            label=f"{name}/quiz_answers.jsonl")
        self._questions: JsonlLedger[Any] = JsonlLedger(
            self._root / "questions.jsonl", ReviewQuestionWritten,
            label=f"{name}/questions.jsonl")
        self._flashcards: JsonlLedger[Any] = JsonlLedger(
            self._root / "flashcards.jsonl", FlashcardKept, label=f"{name}/flashcards.jsonl")
        self._retired: JsonlLedger[Any] = JsonlLedger(
            self._root / "flashcards_retired.jsonl", FlashcardsRetired,
            label=f"{name}/flashcards_retired.jsonl")
        self._assertions: JsonlLedger[Any] = JsonlLedger(
            self._root / "assertions.jsonl", LearnerAsserted, label=f"{name}/assertions.jsonl")
        self._retractions: JsonlLedger[Any] = JsonlLedger(
            self._root / "assertions_retracted.jsonl", AssertionRetracted,
            label=f"{name}/assertions_retracted.jsonl")

    def __repr__(self) -> str:
        return f"JsonlLearnerStore({str(self._root)!r})"
