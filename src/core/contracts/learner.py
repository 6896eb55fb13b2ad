"""Learner ledger records: evidence about the learner that is not graph knowledge — review grades
and the teacher's validated observations (a corrected misconception among them) — and the review
questions a model wrote for a node, kept once they passed the evidence check.

Append-only like the graph ledgers; every id is unique (a replayed append is ignored by readers).
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
# What the review showed: a cloze, a recall prompt, or (with a model) a stored question.
PromptKind = Literal["cloze", "recall", "question"]


class ReviewGraded(Record):
    """The learner graded their recall of a node in a review."""

    kind: Literal["review"] = "review"
    id: str = Field(min_length=1)
    node_id: str = Field(min_length=1)
    grade: Grade
    prompt_kind: PromptKind | None = None  # the prompt shown, for the record
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
