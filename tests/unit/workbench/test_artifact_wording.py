"""How the learner and the teacher hear of a study artifact job: a running job reads as a
sentence ("Writing flashcards on heaps", never "Preparing a flashcards: Flashcards: ..."), and
the teacher's steer names what was written and what was left out."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from studyhall.core.contracts.jobs import Job
from studyhall.core.workbench.kinds import JOB_KINDS, SPECS, job_title
from studyhall.core.workbench.steer import result_text

AT = datetime(2025, 1, 1, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("kind, expected", [
    ("research", "Researching: Why are heaps arrays?"),
    ("demo", "Building a demo of heaps"),
    ("visual", "Drawing a diagram of heaps"),
    ("notes", "Writing notes on heaps"),
    ("flashcards", "Writing flashcards on heaps"),
    ("study_plan", "Planning your study: pass the exam"),
    ("study_guide", "Writing a study guide on heaps"),
    ("mind_map", "Drawing a mind map of heaps"),
])
def test_every_running_job_reads_as_a_sentence(kind: str, expected: str) -> None:
    args = {"question": "Why are heaps arrays?", "concept": "heaps", "subject": "heaps",
            "topic": "heaps", "goal": "pass the exam"}
    assert job_title(kind, {SPECS[kind].headline: args[SPECS[kind].headline]}) == expected  # type: ignore[index]


def test_no_title_repeats_its_noun_or_misuses_an_article() -> None:
    for kind in JOB_KINDS:
        alone = job_title(kind, {})
        title = job_title(kind, {SPECS[kind].headline: "x " * 100})
        assert ": " not in alone and title.startswith(alone) and title.endswith("…")
        assert SPECS[kind].noun.capitalize() + ":" not in title
        assert "a flashcards" not in title and "Preparing" not in title


def job(kind: str, result: dict[str, Any]) -> Job:
    return Job(id="job_1", chat_id="c", kind=kind, status="running", outcome="done",
               input={"topic": "heaps"}, result=result, created_at=AT, updated_at=AT)


def test_the_teacher_reads_study_guides_and_mind_maps_with_their_drops() -> None:
    text = result_text(job("study_guide", {"artifacts": {
        "study_guide": {"title": "Heaps", "key_ideas": [{"idea": "Heaps are trees."}],
                        "faq": [{"question": "Why?", "answer": "No gaps."}],
                        "dropped": 2, "dropped_reasons": ["a", "b"]},
        "mind_map": {"title": "Heap map", "root": {"label": "Heaps", "children": [
            {"label": "Shape", "children": [{"label": "Complete", "children": []}]}]},
            "mermaid": "flowchart LR\n", "dropped": 0, "dropped_reasons": []}},
        "failed": {}}))
    assert "ready and shown to the learner as cards: study guide, mind map." in text
    assert "Study guide — Heaps (2 left out: not backed by the material):" in text
    assert "- Heaps are trees." in text and "- Q: Why? / A: No gaps." in text
    assert "Mind map — Heap map:\n- Heaps\n  - Shape\n    - Complete" in text


def test_the_teacher_hears_how_many_cards_were_left_out() -> None:
    text = result_text(job("flashcards", {"artifacts": {"flashcards": {
        "title": "Heap cards", "cards": [{"front": "Q1", "back": "A1"}], "dropped": 2,
        "dropped_reasons": ["x", "y"]}}, "failed": {}}))
    assert "Flashcards — Heap cards (1 card, 2 left out: not backed by the material):" in text
