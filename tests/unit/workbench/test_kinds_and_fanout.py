"""Job kinds: argument checks the teacher can act on; fan-out and assembly of study artifacts."""

from __future__ import annotations

import pytest
from studyhall.core.workbench.fanout import artifact_set, assemble, writer_brief
from studyhall.core.workbench.kinds import (
    JOB_KINDS,
    SPECS,
    check_input,
    headline,
    normalize_input,
)


def test_every_kind_has_a_schema_with_its_required_fields() -> None:
    for kind in JOB_KINDS:
        schema = SPECS[kind].schema()
        assert schema["type"] == "object" and schema["required"]
        assert set(schema["required"]) <= set(schema["properties"])


def test_good_arguments_are_normalized() -> None:
    assert normalize_input("research", {"question": "  Why   heaps? "}) == {"question": "Why heaps?"}
    assert normalize_input("flashcards", {"topic": "heaps"}) == {"topic": "heaps", "count": 10}
    assert normalize_input("notes", {"topic": "heaps", "also": ["study_plan", "flashcards"]}) == \
        {"topic": "heaps", "also": ["flashcards", "study_plan"]}


@pytest.mark.parametrize("kind, args, fragment", [
    ("research", {}, "question is missing"),
    ("research", {"question": "  "}, "non-empty"),
    ("research", {"question": "x" * 3000}, "keep it under"),
    ("demo", {"concept": "heaps"}, "brief is missing"),
    ("visual", {"subject": "heap", "colour": "red"}, "unknown argument(s): colour"),
    ("flashcards", {"topic": "heaps", "count": 500}, "whole number from 3 to 30"),
    ("flashcards", {"topic": "heaps", "count": True}, "whole number"),
    ("notes", {"topic": "heaps", "also": ["notes"]}, "list drawn from flashcards, study_plan"),
    ("study_plan", {"goal": 3}, "non-empty string"),
])
def test_bad_arguments_come_back_as_fixable_problems(kind, args, fragment) -> None:
    problems = check_input(kind, args)
    assert any(fragment in p for p in problems), problems
    with pytest.raises(ValueError):
        normalize_input(kind, args)


def test_headline_names_the_job_in_one_line() -> None:
    assert headline("demo", {"concept": "binary search"}) == "Demo: binary search"
    assert headline("visual", {"subject": "x" * 200}).endswith("…")
    assert len(headline("visual", {"subject": "x" * 200})) < 100


def test_fan_out_writes_its_own_kind_first_then_the_others_asked_for() -> None:
    assert artifact_set("research", {}) == ()
    assert artifact_set("flashcards", {"topic": "t"}) == ("flashcards",)
    assert artifact_set("study_plan", {"goal": "g", "also": ["flashcards", "notes"]}) == \
        ("study_plan", "notes", "flashcards")
    brief = writer_brief("flashcards", {"goal": "pass", "count": 5})
    assert brief == {"topic": "pass", "count": 5}
    assert writer_brief("study_plan", {"topic": "heaps"})["goal"] == "Understand heaps"


def test_assembly_names_every_part_written_or_failed() -> None:
    order = ("notes", "flashcards", "study_plan")
    done = assemble(order, {"notes": {"title": "n"}}, {"flashcards": "bad cards"})
    assert done.ok
    assert done.result == {"artifacts": {"notes": {"title": "n"}},
                           "failed": {"flashcards": "bad cards",
                                      "study_plan": "The writer produced nothing."}}
    assert not assemble(order, {}, {"notes": "x"}).ok


def test_study_guides_and_mind_maps_are_artifact_kinds_that_fan_out() -> None:
    assert normalize_input("study_guide", {"topic": " heaps ", "also": ["mind_map", "notes"]}) \
        == {"topic": "heaps", "also": ["notes", "mind_map"]}
    assert normalize_input("mind_map", {"topic": "heaps", "focus": "order"}) == \
        {"topic": "heaps", "focus": "order"}
    assert check_input("mind_map", {})[0].startswith("topic is missing")
    assert artifact_set("notes", {"also": ["mind_map", "study_guide"]}) == \
        ("notes", "study_guide", "mind_map")
    assert writer_brief("mind_map", {"topic": "heaps", "focus": "order", "count": 9}) == \
        {"topic": "heaps", "focus": "order"}
    assert headline("study_guide", {"topic": "heaps"}) == "Study guide: heaps"
    assert headline("mind_map", {"topic": "heaps"}) == "Mind map: heaps"
