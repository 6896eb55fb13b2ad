"""What a written study artifact keeps: cards and claims their evidence backs. Unbacked ones are
dropped and counted; only when too few survive does the writer have to fix its answer; a
malformed answer is a clear problem for the writer, never a crash."""

from __future__ import annotations

import json
from typing import Any

import pytest
from studyhall.core.agents.grounding import GraphFact, Grounding, Passage
from studyhall.core.agents.writers import write_artifact, writer_messages
from studyhall.core.errors import JobFailed
from studyhall.core.workbench.artifact_checks import Offered, review_artifact
from studyhall.core.workbench.artifacts import ARTIFACT_MODELS, artifact_schema

from tests.support.chat_script import scripted

HEAPS = ("Heaps are stored in arrays because a complete tree has no gaps. In a max-heap the "
         "root holds the largest key. Insertion sifts the new key up, so it costs O(log n).")
OFFERED = Offered(nodes=frozenset({"n_1"}), texts=("A heap is a complete binary tree.", HEAPS))
GROUNDING = Grounding(facts=(GraphFact("n_1", "A heap is a complete binary tree.", "shaky"),),
                      passages=(Passage(1, "heaps.md", "Heaps", HEAPS),))

GOOD = [
    {"front": "What shape is a heap?", "back": "A complete binary tree.", "node_id": "n_1",
     "evidence": "A heap is a complete binary tree."},
    {"front": "What does a max-heap keep at its root?", "back": "The largest key.",
     "evidence": "In a max-heap the root holds the largest key"},
    {"front": "Why are heaps stored in arrays?", "back": "A complete tree has no gaps.",
     "evidence": "“Heaps are stored in arrays because a complete tree has no gaps.”"},
    {"front": "What does insertion cost?", "back": "O(log n).",
     "evidence": "Insertion sifts the new key up, so it costs O(log n)"},
]
INVENTED = {"front": "Who invented heaps?", "back": "J. W. J. Williams in 1964.",
            "evidence": "Heaps were invented by J. W. J. Williams in 1964."}
CONTRADICTS = {"front": "What does a max-heap keep at its root?", "back": "The smallest key.",
               "evidence": "In a max-heap the root holds the largest key"}
BARE = {"front": "Is a heap sorted?", "back": "Only partially ordered."}


def review(kind: str, answer: dict[str, Any], job_input: dict[str, Any] | None = None) -> Any:
    model = ARTIFACT_MODELS[kind].model_validate(answer)  # type: ignore[index]
    return review_artifact(kind, model, OFFERED, job_input or {})  # type: ignore[arg-type]


def test_backed_cards_are_kept_with_their_evidence_and_a_zero_count() -> None:
    r = review("flashcards", {"title": "Heaps", "cards": GOOD}, {"count": 4})
    assert r.problems == ()
    assert r.content["dropped"] == 0 and r.content["dropped_reasons"] == []
    assert [c["front"] for c in r.content["cards"]] == [c["front"] for c in GOOD]
    assert r.content["cards"][0] == {"front": "What shape is a heap?",
                                     "back": "A complete binary tree.", "node_id": "n_1",
                                     "evidence": "A heap is a complete binary tree."}
    assert set(r.content) == {"title", "cards", "dropped", "dropped_reasons"}


def test_invented_contradicting_and_bare_cards_are_dropped_and_counted() -> None:
    cards = [*GOOD, INVENTED, CONTRADICTS | {"front": "And the root again?"}, BARE]
    r = review("flashcards", {"title": "Heaps", "cards": cards})
    assert r.problems == ()  # four of seven survive: enough, the writer is not asked again
    assert [c["front"] for c in r.content["cards"]] == [c["front"] for c in GOOD]
    assert r.content["dropped"] == 3
    reasons = r.content["dropped_reasons"]
    assert reasons[0] == 'Card "Who invented heaps?": its evidence is not in the material.'
    assert reasons[1].startswith('Card "And the root again?": the answer says what its '
                                 "evidence does not (smallest)")
    assert reasons[2] == 'Card "Is a heap sorted?": no evidence quoted.'


def test_when_too_few_cards_survive_the_writer_must_fix_them() -> None:
    r = review("flashcards", {"title": "Heaps", "cards": [GOOD[0], INVENTED, BARE]})
    (problem,) = r.problems
    assert problem.startswith("only 1 of 3 cards are backed by the material")
    assert "verbatim quote" in problem and "Who invented heaps?" in problem


def test_a_study_guide_keeps_backed_ideas_and_answers() -> None:
    guide = {"title": "Heaps", "key_ideas": [
        {"idea": "A heap is a complete binary tree.", "node_id": "n_1",
         "evidence": "A heap is a complete binary tree"},
        {"idea": "Heaps are linked lists.", "evidence": "Heaps are linked lists of nodes."},
        {"idea": "The root of a max-heap holds the largest key.",
         "evidence": "In a max-heap the root holds the largest key"}],
        "faq": [{"question": "Why an array?", "answer": "A complete tree has no gaps.",
                 "evidence": "because a complete tree has no gaps"}]}
    r = review("study_guide", guide)
    assert r.problems == ()
    assert [i["idea"] for i in r.content["key_ideas"]] == [
        "A heap is a complete binary tree.", "The root of a max-heap holds the largest key."]
    assert r.content["faq"] == [{"question": "Why an array?",
                                 "answer": "A complete tree has no gaps.",
                                 "evidence": "because a complete tree has no gaps",
                                 "node_id": None}]
    assert r.content["dropped"] == 1
    assert r.content["dropped_reasons"] == [
        'Key idea "Heaps are linked lists.": its evidence is not in the material.']
    assert set(r.content) == {"title", "key_ideas", "faq", "dropped", "dropped_reasons"}
    bad = review("study_guide", guide | {"faq": [{"question": "Why?", "answer": "Because.",
                                                  "node_id": "n_404"}]})
    assert any("node_id 'n_404'" in p for p in bad.problems)
    assert any(p.startswith("only 0 of 1 FAQ answers") for p in bad.problems)


def test_a_mind_map_is_kept_as_a_tree_and_its_mermaid() -> None:
    ideas = [{"id": "a", "label": "Shape", "node_id": "n_1"},
             {"id": "b", "label": "Complete", "parent": "a"}]
    ideas += [{"id": f"d{n}", "label": f"deep {n}", "parent": "b" if n == 0 else f"d{n - 1}"}
              for n in range(4)]
    r = review("mind_map", {"title": "Heaps", "center": "Heaps", "ideas": ideas})
    assert r.problems == ()
    assert set(r.content) == {"title", "root", "mermaid", "dropped", "dropped_reasons"}
    assert r.content["root"]["children"][0]["label"] == "Shape"
    assert r.content["mermaid"].startswith("flowchart LR\n")
    assert r.content["dropped"] == 2
    assert r.content["dropped_reasons"] == ["2 ideas deeper than 4 levels left out."]
    bad = review("mind_map", {"title": "H", "center": "H", "ideas": [
        {"id": "a", "label": "x", "node_id": "n_9"}]})
    assert "node_id 'n_9'" in bad.problems[0]


def test_notes_and_plans_carry_a_zero_drop_count() -> None:
    notes = review("notes", {"title": "Heaps", "markdown": "# Heaps\n\n" + HEAPS})
    assert notes.problems == () and notes.content["dropped"] == 0
    plan = review("study_plan", {"title": "P", "goal": "g", "steps": [
        {"title": "s", "node_ids": ["n_1", "n_2"]}]})
    assert plan.problems == (("step 1: node ids ['n_2'] are not among the graph nodes you "
                              "were given; use only those ids (or none)."),)


def test_no_schema_is_recursive() -> None:
    """Some providers refuse recursive JSON schemas: the mind map is a flat list of ideas."""
    for kind in ARTIFACT_MODELS:
        schema = artifact_schema(kind)
        assert schema["type"] == "object"
        for name, body in schema.get("$defs", {}).items():
            assert f"#/$defs/{name}" not in json.dumps(body), (kind, name)


async def test_the_writer_is_asked_again_only_when_too_few_cards_survive() -> None:
    few = {"title": "Heaps", "cards": [GOOD[0], INVENTED, BARE]}
    enough = {"title": "Heaps", "cards": [*GOOD, INVENTED]}
    model = scripted(few, enough)
    built = await write_artifact(model, "You write cards.", "flashcards",
                                 {"topic": "heaps", "count": 5}, GROUNDING)
    assert built.attempts == 2
    assert built.value["dropped"] == 1 and len(built.value["cards"]) == 4
    assert "only 1 of 3 cards are backed" in model.requests[1].messages[-1]["content"]
    system = model.requests[0].messages[0]["content"]
    assert "verbatim quote" in system and "n_1: A heap is a complete binary tree." in system


@pytest.mark.parametrize("answer, says, told", [
    ([1, 2, 3], "does not fit the schema", "left out or garbled a required part"),
    ({"title": "Heaps", "cards": "many"}, "does not fit the schema", "(cards)"),
    ("no json here", "not valid JSON", "not in the form asked for"),
    ({"title": "Map", "center": "c", "ideas": [{"id": "a", "label": "x", "parent": "a"}]},
     "parent 'a' is not an idea listed before it", "parent 'a' is not an idea listed before it"),
])
async def test_a_malformed_answer_is_a_clear_failure_not_a_crash(answer: Any, says: str,
                                                                 told: str) -> None:
    kind = "mind_map" if isinstance(answer, dict) and "center" in answer else "flashcards"
    model = scripted(answer, answer)
    with pytest.raises(JobFailed) as failed:
        await write_artifact(model, "p", kind, {"topic": "heaps"}, GROUNDING, attempts=2)
    # The model was told the exact rule; the window says it in words (issue 30: no schema or
    # JSON words in the window).
    assert any(says in p for p in failed.value.problems)
    assert told in str(failed.value)
    assert "JSON" not in str(failed.value) and "schema" not in str(failed.value)


def test_without_material_the_writer_is_told_to_leave_evidence_out() -> None:
    (system, _) = writer_messages("p", "flashcards", {"topic": "t"}, Grounding())
    assert "set every `evidence` to null" in system["content"]
    (system, _) = writer_messages("p", "mind_map", {"topic": "t"}, GROUNDING)
    assert "evidence" not in system["content"].split("Answer with one JSON")[0]


def test_every_kept_quote_links_to_its_place() -> None:
    """Issue 30 item 5: a card's or a guide's quote says where it is — the passage's source and
    anchor (a lecture's second), or the graph fact's node."""
    from studyhall.core.agents.writers import offered

    lecture = Passage(2, "gc.vtt#t=754", "Lecture 07", HEAPS, source_id="transcript_1")
    given = offered(Grounding(facts=GROUNDING.facts, passages=(lecture,)))
    answer = ARTIFACT_MODELS["flashcards"].model_validate({"title": "Heaps", "cards": GOOD})
    cards = review_artifact("flashcards", answer, given, {}).content["cards"]
    assert cards[0]["evidence_place"] == {"node_id": "n_1"}
    assert cards[1]["evidence_place"] == {"source_id": "transcript_1", "anchor": "t=754",
                                          "title": "Lecture 07"}
    guide = ARTIFACT_MODELS["study_guide"].model_validate({
        "title": "Heaps", "key_ideas": [{"idea": "Insertion costs O(log n).",
                                         "evidence": "Insertion sifts the new key up, so it costs O(log n)"}],
        "faq": [{"question": "What shape is a heap?", "answer": "A complete binary tree.",
                 "evidence": "A heap is a complete binary tree."}]})
    content = review_artifact("study_guide", guide, given, {}).content
    assert content["key_ideas"][0]["evidence_place"]["anchor"] == "t=754"
    assert content["faq"][0]["evidence_place"] == {"node_id": "n_1"}
