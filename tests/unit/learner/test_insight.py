"""What the tutor's tools and the opening context read from the learner model: strong and weak
concepts and topics, one concept's standing with its gate, the explanation of a score, what is
due near a topic, and the "Weak here" / "Due for review" / gaps lines."""

from __future__ import annotations

from studyhall.core.contracts.graph import Cluster
from studyhall.core.contracts.learner import LearnerObserved
from studyhall.core.library.graph.snapshot import Ledgers, fold_snapshot
from studyhall.core.library.learner import insight
from studyhall.core.library.learner.evidence import LearnerEvidence
from studyhall.core.library.learner.model import LearnerModel
from studyhall.core.library.learner.queue import Limits
from studyhall.core.library.learner.session_context import near_standing

from tests.support.graph_events import cp, edge, prop, quiz
from tests.support.library_session import at

DAY = 60 * 24
LEDGERS = Ledgers(
    propositions=[prop("tree", text="A tree is a connected graph without cycles."),
                  prop("heap", text="A heap is a complete binary tree."),
                  prop("sort", text="Heapsort sorts in O(n log n)."),
                  prop("array", text="An array stores items side by side."),
                  prop("fresh", text="Never studied.")],
    edges=[edge("tree", "heap"), edge("heap", "sort")],
    quiz_events=[quiz("tree", "miss", 1), quiz("heap", "miss", 2, call="c2"),
                 quiz("array", "correct", 3, call="c3"), quiz("array", "correct", 4, call="c4"),
                 quiz("array", "correct", 5, call="c5")],
    checkpoints=[cp("r1")])
CLUSTERS = [Cluster(id="k1", node_ids=("tree", "heap"), label="Trees"),
            Cluster(id="k2", node_ids=("array",), label="Arrays")]


def model(observations=(), minute: int = 2 * DAY) -> LearnerModel:
    return LearnerModel(fold_snapshot(LEDGERS, clusters=CLUSTERS),
                        LearnerEvidence((), observations), at(minute), Limits())


def test_strengths_name_strong_and_weak_concepts_and_topics():
    out = insight.strengths(model())
    assert [c["node_id"] for c in out["strong"]] == ["array"]
    # equally weak: in the graph's order (or the nearness order asked for)
    assert [(c["node_id"], c["mastery"]) for c in out["weak"]] == [("tree", 0.24), ("heap", 0.24)]
    assert [t["topic"] for t in out["strong_topics"]] == ["Arrays"]
    assert [t["topic"] for t in out["weak_topics"]] == ["Trees"]
    assert out["counts"] == {"solid": 1, "shaky": 2, "not-tried": 2,
                             "corrected-misconception": 0}
    near = insight.strengths(model(), ["tree", "fresh"])  # narrowed to some nodes
    assert near["strong"] == [] and [c["node_id"] for c in near["weak"]] == ["tree"]


def test_standing_says_whether_hard_questions_are_allowed_and_what_blocks_them():
    heap = insight.standing(model(), "heap")
    assert heap["state"] == "shaky" and heap["evidence"] == 1
    assert heap["ready_for_hard_questions"] is False
    assert [b["node_id"] for b in heap["blocked_by"]] == ["tree"]
    assert heap["blocked_by"][0]["needs"] == 0.7
    assert insight.standing(model(), "tree")["ready_for_hard_questions"] is True
    assert heap["due_for_review"] is True and heap["retrievability"] is None  # a new card


def test_explain_lists_the_events_newest_first_with_the_score_after_each():
    seen = LearnerObserved(id="lob_1", node_id="tree", level="solid",
                           note="“no cycles, one path” — explained it", at=at(DAY))
    out = insight.explain(model([seen]), "tree")
    assert out["events"] == 2
    assert out["explanation"][0].startswith("teacher observation on Mar 2: solid — “no cycles")
    assert out["explanation"][1].startswith("quiz c/q1 on Mar 1: wrong → 0.24 (was 0.50)")
    assert insight.explain(model(), "fresh")["explanation"] == [
        "no quiz answers, observations or reviews yet"]


def test_due_keeps_the_queue_order_among_the_nodes_asked_about():
    m = model()
    everything = insight.due(m)
    assert everything["due_today"] == everything["due_here"] == 3  # studied nodes are cards
    mine = insight.due(m, ["sort", "heap", "fresh"])
    assert [d["node_id"] for d in mine["due"]] == ["heap"] and mine["due_here"] == 1
    assert mine["due"][0]["new"] is True


def test_near_standing_lines_name_weak_due_and_gated_concepts_with_figures():
    standing = near_standing(model(), ["heap", "sort", "tree", "fresh"])
    weak, due, gaps = standing.lines()
    assert weak.startswith("Weak here (mastery below 0.8, weakest first): “A heap is")
    assert "(heap) 0.24; “A tree is" in weak  # nearest first among equals
    assert due.startswith("Due for review: ") and "mastery 0.24, recall new card" in due
    # heap (tried) waits for tree; sort (untried) waits for heap (tried): both are gaps.
    assert gaps.startswith("Gaps — no hard questions until each prerequisite is at 0.7: ")
    assert "(heap) needs “A tree is a connected graph without cycles.” (tree) (now 0.24)" in gaps
    assert "(sort) needs “A heap is a complete binary tree.” (heap)" in gaps
    assert [g["node_id"] for g in standing.data()["gaps"]] == ["heap", "sort"]
    # Nothing studied nearby: nothing to say.
    assert near_standing(model(), ["fresh"]).lines() == []
    assert near_standing(model(), []).lines() == []
