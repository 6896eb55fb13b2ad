"""Issue 28 item 2: a data folder made by the landed code (one node per heading) re-imported by
this code becomes one node per note: every heading node folds into its note's topic with an
``absorbs`` identity, the learner's evidence on a heading node (a session quiz answer in the
graph, a review grade and a teacher's observation in the learner ledgers) follows it there, the
mastery is kept, and a second import changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from studyhall.adapters.fakes import FixedClock, SequentialIds
from studyhall.adapters.store import JsonlGraphStore, JsonSettingsStore
from studyhall.adapters.store.learner import JsonlLearnerStore
from studyhall.core.contracts.graph import QuizEvent, RunCheckpoint
from studyhall.core.contracts.learner import (
    FlashcardKept,
    LearnerObserved,
    ReviewGraded,
    ReviewQuestionWritten,
)
from studyhall.core.library.extraction.merger import node_id_for
from studyhall.core.library.graph.snapshot import graph_snapshot
from studyhall.server.runtime.learner.ledgers import LearnerLedgers
from studyhall.server.runtime.library.graph_reader import GraphReader

from tests.support.landed_structure import landed_code
from tests.support.notes import importer, ledger_bytes, make_vault

AT = datetime(2026, 3, 1, 9, tzinfo=UTC)
HEADING = "Note 00: Details of cells"  # a heading node the landed code made


def ledgers(data: Path) -> LearnerLedgers:
    return LearnerLedgers(graph=GraphReader(JsonlGraphStore(data / "graph")),
                          learner_store=JsonlLearnerStore(data / "learner"),
                          settings_store=JsonSettingsStore(data / "settings.json"),
                          clock=FixedClock(AT), ids=SequentialIds())


def study_the_heading(data: Path) -> str:
    """The learner's evidence on the heading node, as the landed app recorded it."""
    heading = node_id_for(HEADING)
    graph = JsonlGraphStore(data / "graph")
    graph.append_quiz_events([QuizEvent(
        id="quiz_1", node_id=heading, verdict="correct", source_id="chat_1",
        tool_call_id="call_1", question_index=0, run_id="run_chat", at=AT)])
    graph.append_checkpoint(RunCheckpoint(id="run_chat", source_id="chat_1", started_at=AT,
                                          finished_at=AT))
    learner = JsonlLearnerStore(data / "learner")
    learner.append_grades([ReviewGraded(id="rev_1", node_id=heading, grade="good", at=AT)])
    learner.append_observations([LearnerObserved(
        id="lob_1", node_id=heading, level="solid", note="explained the details", at=AT)])
    learner.append_flashcards([FlashcardKept(
        id="card_1", artifact_id="art_1", node_id=heading, front="What concerns cells?",
        back="The first detail of note 00.", at=AT)])
    learner.append_questions([ReviewQuestionWritten(
        id="rq_1", node_id=heading, question="What does note 00 detail?", answer="Cells.",
        evidence_quote="The first detail of note 00 concerns cells deeply.", at=AT)])
    return heading


async def test_reimport_folds_heading_nodes_into_the_note_topic_and_keeps_what_was_learned(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    vault = make_vault(tmp_path / "Vault", notes=6)
    data = tmp_path / "data"
    with landed_code(monkeypatch):
        await importer(data).run(str(vault), embed=False)
    landed = graph_snapshot(JsonlGraphStore(data / "graph"))
    assert len(landed.nodes) == 6 + 6 * 2  # the landed shape: each note and its two headings
    heading = study_the_heading(data)
    before = ledgers(data).mastery(heading)
    assert before["state"] == "solid" and len(before["explanation"]) == 3

    report = await importer(data).run(str(vault), embed=False)

    graph = JsonlGraphStore(data / "graph")
    snap = graph_snapshot(graph)
    assert sorted(n.text for n in snap.nodes) == [f"Note {i:02d}" for i in range(6)]
    absorbed = {i.absorbs: i.node_id for i in graph.identity_links().records if i.absorbs}
    topic = node_id_for("Note 00")
    assert absorbed[heading] == topic and len(absorbed) == 12
    assert report.dropped == 0
    node = snap.node(topic)
    assert node is not None
    # The heading's evidence now sits on the topic, still cited from its section.
    assert "The first detail of note 00 concerns cells deeply." in {
        e.quote for e in node.evidence if e.message_id.endswith("#Details of cells")}
    # No heading-hierarchy edges: the edges are the notes' links, one per linked pair.
    pairs = [(e.source, e.target) for e in snap.edges]
    assert len(pairs) == len(set(pairs)) == 6
    assert all(snap.node(a) and snap.node(b) for a, b in pairs)
    # Each note links its next twice (the note and a heading of it): one edge, weight 2, also
    # where the landed graph had two (one into the heading's node).
    assert {e.weight for e in snap.edges} == {2}
    # What was learned on the heading is the topic's now: quiz, grade, observation, mastery.
    after = ledgers(data).mastery(topic)
    assert after["state"] == before["state"] and after["mastery"] == before["mastery"]
    assert [s["kind"] for s in after["explanation"]] == [
        s["kind"] for s in before["explanation"]]
    assert ledgers(data).graph_with_evidence().node(topic).state == "solid"  # type: ignore[union-attr]
    # The card kept and the question written for the heading are the topic's too.
    model = ledgers(data).model()
    assert [c.id for c in model.learner.flashcards.on(topic)] == ["card_1"]
    assert model.questions[topic].id == "rq_1"

    once = ledger_bytes(data)
    again = await importer(data).run(str(vault), embed=False)
    assert ledger_bytes(data) == once  # idempotent: nothing left to fold, nothing new
    assert (again.imported, again.propositions) == (0, 0)


async def test_a_note_whose_title_a_heading_node_once_had_stays_a_topic(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    vault = make_vault(tmp_path / "Vault", notes=2)
    # The landed code named the heading "Steps" of "Note 00" "Note 00: Steps": so is this note.
    (vault / "Note 00: Steps.md").write_text("The steps of note 00 have a note of their own.\n")
    data = tmp_path / "data"
    with landed_code(monkeypatch):
        await importer(data).run(str(vault), embed=False)
    await importer(data).run(str(vault), embed=False)
    texts = sorted(n.text for n in graph_snapshot(JsonlGraphStore(data / "graph")).nodes)
    assert texts == ["Note 00", "Note 00: Steps", "Note 01"]
