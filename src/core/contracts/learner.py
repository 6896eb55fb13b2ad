"""Learner ledger records: evidence about the learner that is not graph knowledge — review grades
and the teacher's validated observations (a corrected misconception among them) — the review
questions a model wrote for a node, kept once they passed the evidence check, and the flashcards
the learner kept (from an artifact or an Anki deck) with their retirements, and what the learner
said of themselves ("I know this", "I don't know this", "this is wrong") with its retractions.

A grade taken back is a record too (``GradeUndone``). Append-only like the graph ledgers; every id is unique (a replayed append is ignored by readers).
Mastery, FSRS card state and due dates are derived from these at read time, never stored.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal, get_args

from pydantic import Field
from studyhall.core.contracts.base import Record

# FSRS's four grades: forgot / recalled with effort / recalled / recalled without effort.
Grade = Literal["again", "hard", "good", "easy"]
GRADES: tuple[Grade, ...] = get_args(Grade)
# The extractor's closed understanding scale, plus "corrected": the teacher saw the learner
# replace a misconception with the right idea.
LearnerLevel = Literal["solid", "partial", "confused", "misconception", "corrected"]
LEARNER_LEVELS: tuple[LearnerLevel, ...] = get_args(LearnerLevel)
# What the review showed: a cloze, a recall prompt, (with a model) a stored question, or one of
# the learner's kept flashcards (an artifact's, or a card imported from Anki).
PromptKind = Literal["cloze", "recall", "question", "flashcard"]


class ReviewGraded(Record):
    """The learner graded their recall of a node in a review."""

    kind: Literal["review"] = "review"
    id: str = Field(min_length=1)
    node_id: str = Field(min_length=1)
    grade: Grade
    prompt_kind: PromptKind | None = None  # the prompt shown, for the record
    at: datetime


class GradeUndone(Record):
    """The learner took a review grade back (undo, right after giving it): from then on the
    card is replayed without it, as if it had not been given."""

    kind: Literal["grade-undone"] = "grade-undone"
    id: str = Field(min_length=1)  # ``undo_<grade id>``: one undo per grade
    grade_id: str = Field(min_length=1)
    at: datetime


class CardSuspended(Record):
    """The learner took a node's card out of review (a poor card, or one not worth the time),
    or put it back: the latest record per node holds. Its grades and mastery stay."""

    kind: Literal["card-suspended"] = "card-suspended"
    id: str = Field(min_length=1)
    node_id: str = Field(min_length=1)
    suspended: bool
    at: datetime


class LearnerObserved(Record):
    """An observation of the learner's understanding of a node, proposed by the teacher through a
    validated tool (the code decides what it changes; the model never writes a score)."""

    kind: Literal["observation"] = "observation"
    id: str = Field(min_length=1)
    node_id: str = Field(min_length=1)
    level: LearnerLevel
    note: str = Field(default="", max_length=500)  # what was seen, in a sentence
    source_id: str | None = None  # the chat it was seen in
    at: datetime


class SourceQuizAnswered(Record):
    """The learner answered one "Quiz me" question on a source; recorded on a node that the
    question's passage supports (one record per node and question)."""

    kind: Literal["source-quiz"] = "source-quiz"
    id: str = Field(min_length=1)
    node_id: str = Field(min_length=1)
    verdict: Literal["correct", "miss", "dont-know"]
    source_id: str = Field(min_length=1)
    quiz_id: str = Field(min_length=1)
    question: int = Field(ge=0)  # the question's position in the quiz
    at: datetime
    # What was picked and what was right, as shown (the misconception rule reads them); empty
    # on records written before they were kept, and for "I don't know".
    chosen: tuple[str, ...] = Field(default=(), max_length=10)
    right: tuple[str, ...] = Field(default=(), max_length=10)


class ReviewQuestionWritten(Record):
    """A model wrote a review question for a node and it passed the evidence check (its quote
    occurs verbatim in the node's text or evidence): the node's prompt from then on."""

    kind: Literal["review-question"] = "review-question"
    id: str = Field(min_length=1)
    node_id: str = Field(min_length=1)
    question: str = Field(min_length=1, max_length=1000)
    answer: str = Field(min_length=1, max_length=2000)
    evidence_quote: str = Field(min_length=1, max_length=2000)  # verbatim from the node
    model: str = ""  # the role's model id when it was written, for the record
    at: datetime


class FlashcardKept(Record):
    """A flashcard the learner kept, on the node it tests: from then on the node is reviewable
    and its review shows this card (front, then back). Kept per artifact (a flashcards artifact,
    or an imported Anki deck); a later ``FlashcardsRetired`` of the artifact takes it out."""

    kind: Literal["flashcard"] = "flashcard"
    id: str = Field(min_length=1)  # derived from the artifact, the node and the card's text
    artifact_id: str = Field(min_length=1)
    node_id: str = Field(min_length=1)
    front: str = Field(min_length=1, max_length=4000)
    back: str = Field(min_length=1, max_length=8000)
    evidence: str | None = Field(default=None, max_length=4000)  # the quote the card rests on
    generation: int = Field(default=0, ge=0)  # retirements of its artifact before it was kept
    at: datetime


class FlashcardsRetired(Record):
    """The artifact's cards of ``generation`` leave the review queue (the artifact was
    deleted); a card kept later is of the next generation. Grades already given stay: they
    are evidence on their nodes."""

    kind: Literal["flashcards-retired"] = "flashcards-retired"
    id: str = Field(min_length=1)
    artifact_id: str = Field(min_length=1)
    generation: int = Field(default=0, ge=0)
    at: datetime


# What the learner can say of a topic or idea: "I know this", "I don't know this", "this is
# wrong" (what the app recorded of them here is not what they meant).
AssertionKind = Literal["know", "dont_know", "wrong"]
ASSERTION_KINDS: tuple[AssertionKind, ...] = get_args(AssertionKind)
ASSERTION_NOTE_CHARS = 500


class LearnerAsserted(Record):
    """The learner said it of themselves, on a node. Written only by the learner's own request
    (``POST /api/graph/nodes/{id}/assertions``): no tool a model calls can append one."""

    kind: Literal["assertion"] = "assertion"
    id: str = Field(min_length=1)
    node_id: str = Field(min_length=1)
    claim: AssertionKind
    note: str = Field(default="", max_length=ASSERTION_NOTE_CHARS)  # plain text, shown as text
    at: datetime


class AssertionRetracted(Record):
    """The learner took an assertion back (undo): from then on it counts for nothing. Ledgers
    are append-only, so an undo is a record too."""

    kind: Literal["assertion-retracted"] = "assertion-retracted"
    id: str = Field(min_length=1)
    assertion_id: str = Field(min_length=1)
    at: datetime
