"""The learner model over a graph: evidence from both ledgers in one score, which nodes are
reviewable, the graph overlay that keeps GET /api/graph and GET /api/mastery in agreement, and
the statistics."""

from __future__ import annotations

import pytest
from studyhall.core.contracts.graph import Cluster, Evidence, PropositionCreated
from studyhall.core.contracts.learner import LearnerObserved, ReviewGraded, SourceQuizAnswered
from studyhall.core.errors import NotFound
from studyhall.core.library.graph.snapshot import Ledgers, fold_snapshot
from studyhall.core.library.learner.evidence import LearnerEvidence
from studyhall.core.library.learner.mastery import SOLID_AT
from studyhall.core.library.learner.model import LearnerModel
from studyhall.core.library.learner.overlay import LearnerOverlay
from studyhall.core.library.learner.queue import Limits
from studyhall.core.library.learner.report import mastery_json, stats_json

from tests.support.graph_events import cp, edge, obs, prop, quiz
from tests.support.library_session import at

LEDGERS = Ledgers(
    propositions=[prop("a"), prop("b"), prop("notes_only")],
    edges=[edge("a", "b")],
    quiz_events=[quiz("a", "correct", 1), quiz("b", "miss", 2, call="c2")],
    observations=[obs("b", "partial", 3)],
    checkpoints=[cp("r1")])


def grade(node: str, grade: str, minute: int, n: int = 0) -> ReviewGraded:
    return ReviewGraded(id=f"rev_{node}_{minute}_{n}", node_id=node, grade=grade, at=at(minute))


def model(grades=(), observations=(), minute: int = 60 * 24 * 3,
          ledgers: Ledgers = LEDGERS, clusters=()) -> LearnerModel:
    return LearnerModel(fold_snapshot(ledgers, clusters=clusters),
                        LearnerEvidence(grades, observations), at(minute), Limits())


def test_only_studied_nodes_are_reviewable_and_grading_any_node_makes_it_so():
    assert {r.node_id for r in model().reviewables} == {"a", "b"}
    graded = model([grade("notes_only", "good", 10)])
    assert {r.node_id for r in graded.reviewables} == {"a", "b", "notes_only"}


def test_review_grades_and_teacher_observations_join_the_graphs_evidence():
    plain = model().score("b")
    reviewed = model([grade("b", "easy", 100), grade("b", "good", 2000)],
                     [LearnerObserved(id="lob_1", node_id="b", level="solid", note="explained it",
                                      at=at(3000))]).score("b")
    assert [s.kind for s in reviewed.signals] == ["quiz", "observation", "review", "review",
                                                  "teacher"]
    assert reviewed.value > plain.value and reviewed.value >= SOLID_AT
    explained = mastery_json(model([grade("b", "again", 100)]), "b")["explanation"]
    assert [e["kind"] for e in explained] == ["review", "observation", "quiz"]
    assert explained[0]["detail"].startswith("Review on Mar 1: forgot (again) → ")
    assert explained[0]["before"] == explained[1]["after"]


def test_the_graph_overlay_shows_the_same_state_and_score_as_mastery():
    grades = [grade("b", "good", 100), grade("b", "easy", 3000)]
    m = model(grades)
    overlay = LearnerOverlay()
    snapshot = overlay.apply(m.snapshot, m.learner.signals)
    b = snapshot.node("b")
    assert (b.state, b.value) == (m.score("b").state, m.score("b").value)
    assert b.value != fold_snapshot(LEDGERS).node("b").value  # the reviews count
    assert snapshot.node("a") is m.snapshot.node("a")  # untouched nodes stay the fold's
    # Same evidence: the same node object (the graph body's cache keeps its encoding).
    assert overlay.apply(m.snapshot, m.learner.signals).node("b") is b
    more = LearnerEvidence([*grades, grade("b", "again", 4000)])
    assert overlay.apply(m.snapshot, more.signals).node("b") is not b
    gate = snapshot.gate("b")  # gating reads the overlaid scores too
    assert gate is not None and gate.ready == (snapshot.node("a").value >= 0.7)


def test_stats_replay_mastery_over_time_and_count_retention_of_due_reviews():
    # Learnt on day 0 (two goods), a due review recalled on day 5, forgotten on day 20.
    day = 60 * 24
    grades = [grade("a", "good", 10), grade("a", "good", 20), grade("a", "good", 5 * day),
              grade("a", "again", 20 * day)]
    stats = stats_json(model(grades, minute=21 * day,
                             clusters=[Cluster(id="k1", node_ids=("a", "b"), label="Trees")]))
    assert stats["retention"]["reviews"] == 2 and stats["retention"]["achieved"] == 0.5
    assert stats["retention"]["target"] == 0.9
    series = stats["mastery_over_time"]
    assert len(series) == 30 and series[-1]["date"] == stats["today"]
    assert series[-1]["tried"] == 2 and series[0]["tried"] == 0  # nothing before Mar 1
    assert len(stats["reviews_due"]) == 30
    [topic] = stats["topics"]
    assert topic["label"] == "Trees" and topic["parts"] == 2 and topic["state"] == "shaky"
    assert stats["totals"]["not-tried"] == 1 and stats["totals"]["reviewable"] == 2


def test_an_unknown_node_is_not_found_and_a_known_one_has_a_card():
    with pytest.raises(NotFound, match="No node 'zz'"):
        model().score("zz")
    with pytest.raises(NotFound):
        model().card("zz")
    assert model().card("notes_only").phase == "new"


def test_a_study_quiz_recorded_at_once_and_linked_by_extraction_later_counts_once():
    """A "Study this" session records its quiz on the note when answered; the extractor may
    later link the same question (``c/q1``) to the same node: one signal, not two."""
    answered = SourceQuizAnswered(id="sqa_1", node_id="a", verdict="correct", source_id="chat_1",
                                  quiz_id="c", question=0, at=at(1))
    other = answered.model_copy(update={"id": "sqa_2", "quiz_id": "c9"})
    snapshot = fold_snapshot(LEDGERS)
    learner = LearnerModel(snapshot, LearnerEvidence(quiz_answers=[answered, other]),
                           at(60 * 24 * 3), Limits())
    assert sorted(s.ref for s in learner.score("a").signals) == ["c/q1", "c9/q1"]


def test_stats_count_the_maps_topics_apart_from_their_ideas():
    # A note's topic quotes its title line (as the map knows it); the rest are ideas.
    title = PropositionCreated(id="prp_note", node_id="note", text="Trees",
                               evidence=(Evidence(source_id="src_n", message_id="src_n#",
                                                  quote="# Trees"),),
                               source_id="src_n", run_id="r1", at=at(0))
    ledgers = Ledgers(propositions=[*LEDGERS.propositions, title], edges=LEDGERS.edges,
                      quiz_events=LEDGERS.quiz_events, observations=LEDGERS.observations,
                      checkpoints=LEDGERS.checkpoints)
    totals = stats_json(model(ledgers=ledgers))["totals"]
    assert totals["nodes"] == 4 and totals["topics"] == 1
    assert stats_json(model())["totals"]["topics"] == 0


def test_a_sessions_idea_is_asked_the_same_way_on_every_visit():
    ledgers = Ledgers(propositions=[prop("heap", text="A heap is a complete binary tree with "
                                         "the heap property."), prop("b")],
                      checkpoints=[cp("r1")])
    prompts = {model([grade("heap", "good", 60 * 24 * d, d) for d in range(1, n + 1)],
                     ledgers=ledgers, minute=60 * 24 * 9).prompt("heap") for n in range(4)}
    assert len(prompts) == 1  # was a cloze, then a recall, then the cloze again
