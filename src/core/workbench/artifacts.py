"""The study artifacts a writer returns (notes, flashcards, study plan) and their checks.

The shapes are what the model must answer (JSON schema) and what the UI renders. Beyond the
shape, each has checks a model can fix when told: no empty cards, graph nodes that exist, a
plan with steps. Unknown keys in a model's answer are ignored, not an error.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from studyhall.core.contracts.jobs import JobKind

MAX_NOTES_CHARS = 30_000


class _Out(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, defer_build=True)  # built on first use


class Notes(_Out):
    title: str = Field(min_length=1, max_length=200)
    markdown: str = Field(min_length=1, max_length=MAX_NOTES_CHARS)


class Card(_Out):
    front: str = Field(min_length=1, max_length=1000)
    back: str = Field(min_length=1, max_length=2000)
    node_id: str | None = None


class Flashcards(_Out):
    title: str = Field(min_length=1, max_length=200)
    cards: list[Card] = Field(min_length=1, max_length=60)


class PlanStep(_Out):
    title: str = Field(min_length=1, max_length=200)
    detail: str = Field(default="", max_length=2000)
    minutes: int | None = Field(default=None, ge=1, le=600)
    node_ids: list[str] = Field(default_factory=list)


class StudyPlan(_Out):
    title: str = Field(min_length=1, max_length=200)
    goal: str = Field(min_length=1, max_length=1000)
    steps: list[PlanStep] = Field(min_length=1, max_length=20)


ARTIFACT_MODELS: dict[JobKind, type[_Out]] = {
    "notes": Notes,
    "flashcards": Flashcards,
    "study_plan": StudyPlan,
}


def artifact_schema(kind: JobKind) -> dict[str, Any]:
    return ARTIFACT_MODELS[kind].model_json_schema()


def check_artifact(kind: JobKind, artifact: _Out, nodes: Collection[str],
                   job_input: dict[str, Any]) -> list[str]:
    """Problems the writer must fix; ``nodes`` are the graph node ids it was offered."""
    problems: list[str] = []
    if isinstance(artifact, Notes):
        if len(artifact.markdown.strip()) < 40:
            problems.append("the notes are almost empty; write real notes in Markdown.")
    elif isinstance(artifact, Flashcards):
        fronts = [" ".join(c.front.split()).casefold() for c in artifact.cards]
        if len(set(fronts)) != len(fronts):
            problems.append("two cards ask the same question; make every card ask something else.")
        for n, card in enumerate(artifact.cards, start=1):
            if not card.front.strip() or not card.back.strip():
                problems.append(f"card {n} has an empty side.")
            if card.node_id is not None and card.node_id not in nodes:
                problems.append(f"card {n}: node_id {card.node_id!r} is not one of the graph "
                                "nodes you were given; use one of those ids or null.")
        wanted = job_input.get("count")
        if isinstance(wanted, int) and abs(len(artifact.cards) - wanted) > max(2, wanted // 4):
            problems.append(f"write {wanted} cards (you wrote {len(artifact.cards)}).")
    elif isinstance(artifact, StudyPlan):
        for n, step in enumerate(artifact.steps, start=1):
            unknown = [i for i in step.node_ids if i not in nodes]
            if unknown:
                problems.append(f"step {n}: node ids {unknown} are not among the graph nodes you "
                                "were given; use only those ids (or none).")
    return problems
