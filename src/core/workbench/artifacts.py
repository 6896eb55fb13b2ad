"""What a study-artifact writer must answer (notes, flashcards, study plan, study guide, mind map).

The shapes are the JSON schema the model answers; ``artifact_checks`` turns an answer into the
content that is kept (what the UI renders), dropping the claims its evidence does not back.
Unknown keys in a model's answer are ignored, not an error.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from studyhall.core.contracts.jobs import JobKind
from studyhall.core.workbench.mind_map import MAX_IDEAS

MAX_NOTES_CHARS = 30_000
MAX_QUOTE = 1500


class Answer(BaseModel):
    """The base of every artifact shape: frozen, unknown keys ignored."""

    model_config = ConfigDict(extra="ignore", frozen=True, defer_build=True)  # built on first use


class Notes(Answer):
    title: str = Field(min_length=1, max_length=200)
    markdown: str = Field(min_length=1, max_length=MAX_NOTES_CHARS)


class Card(Answer):
    front: str = Field(min_length=1, max_length=1000)
    back: str = Field(min_length=1, max_length=2000)
    node_id: str | None = None
    # A verbatim quote from the material the writer was given that states the back.
    evidence: str | None = Field(default=None, max_length=MAX_QUOTE)


class Flashcards(Answer):
    title: str = Field(min_length=1, max_length=200)
    cards: list[Card] = Field(min_length=1, max_length=60)


class PlanStep(Answer):
    title: str = Field(min_length=1, max_length=200)
    detail: str = Field(default="", max_length=2000)
    minutes: int | None = Field(default=None, ge=1, le=600)
    node_ids: list[str] = Field(default_factory=list)


class StudyPlan(Answer):
    title: str = Field(min_length=1, max_length=200)
    goal: str = Field(min_length=1, max_length=1000)
    steps: list[PlanStep] = Field(min_length=1, max_length=20)


class KeyIdea(Answer):
    idea: str = Field(min_length=1, max_length=1000)
    evidence: str | None = Field(default=None, max_length=MAX_QUOTE)
    node_id: str | None = None


class FaqEntry(Answer):
    question: str = Field(min_length=1, max_length=500)
    answer: str = Field(min_length=1, max_length=2000)
    evidence: str | None = Field(default=None, max_length=MAX_QUOTE)
    node_id: str | None = None


class StudyGuide(Answer):
    title: str = Field(min_length=1, max_length=200)
    key_ideas: list[KeyIdea] = Field(min_length=1, max_length=15)
    faq: list[FaqEntry] = Field(min_length=1, max_length=25)


class MindIdea(Answer):
    id: str = Field(min_length=1, max_length=60)
    label: str = Field(min_length=1, max_length=300)
    parent: str | None = None  # the id of an idea listed before this one; null = a main branch
    node_id: str | None = None


class MindMap(Answer):
    title: str = Field(min_length=1, max_length=200)
    center: str = Field(min_length=1, max_length=300)
    ideas: list[MindIdea] = Field(min_length=1, max_length=MAX_IDEAS)


ARTIFACT_MODELS: dict[JobKind, type[Answer]] = {
    "notes": Notes,
    "flashcards": Flashcards,
    "study_plan": StudyPlan,
    "study_guide": StudyGuide,
    "mind_map": MindMap,
}


def artifact_schema(kind: JobKind) -> dict[str, Any]:
    return ARTIFACT_MODELS[kind].model_json_schema()

