"""``InMemoryLearnerStore``: the LearnerStore contract over lists (the file's shape guard)."""

from __future__ import annotations

from studyhall.adapters.fakes.ledger import MemoryLedger
from studyhall.adapters.store.learner import LearnerLedgerMethods
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


class InMemoryLearnerStore(LearnerLedgerMethods):
    def __init__(self) -> None:
        self._grades = MemoryLedger(ReviewGraded, "review grades")
        self._undone = MemoryLedger(GradeUndone, "undone review grades")
        self._suspensions = MemoryLedger(CardSuspended, "suspended cards")
        self._observations = MemoryLedger(LearnerObserved, "learner observations")
        self._quiz_answers = MemoryLedger(SourceQuizAnswered, "quiz me answers")
        self._questions = MemoryLedger(ReviewQuestionWritten, "review questions")
        self._flashcards = MemoryLedger(FlashcardKept, "kept flashcards")
        self._retired = MemoryLedger(FlashcardsRetired, "retired flashcards")
        self._assertions = MemoryLedger(LearnerAsserted, "learner assertions")
        self._retractions = MemoryLedger(AssertionRetracted, "retracted assertions")
