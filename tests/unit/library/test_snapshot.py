"""The derived read side: states, mastery, gating, dedup, incremental folding and export."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from studyhall.core.contracts.graph import (
    Cluster,
    Evidence,
    IdentityLinked,
    Position,
)
from studyhall.core.library.graph.interchange import snapshot_to_dict, snapshot_to_graphml
from studyhall.core.library.graph.snapshot import GraphFold, Ledgers, fold_snapshot
from studyhall.core.library.learner.mastery import score

from tests.support.graph_events import cp, edge, obs, prop, quiz
from tests.support.library_session import CHAT, at


def state_of(snap, node):
    return next(n for n in snap.nodes if n.id == node).state


def test_understanding_states_are_derived_from_events():
    ledgers = Ledgers(
        propositions=[prop("a"), prop("b"), prop("c"), prop("d"), prop("e")],
        quiz_events=[quiz("b", "correct", 5), quiz("c", "miss", 5, call="c2"),
                     quiz("d", "correct", 9, call="c3"), quiz("e", "correct", 9, call="c4")],
        observations=[obs("d", "misconception", 4), obs("e", "misconception", 10)],
        checkpoints=[cp("r1")])
    snap = fold_snapshot(ledgers)
    assert [state_of(snap, n) for n in "abcde"] == [
        "not-tried", "solid", "shaky", "corrected-misconception", "shaky"]
    assert next(n for n in snap.nodes if n.id == "a").score.value is None


def test_score_is_explainable_and_recent_evidence_weighs_more():
    from studyhall.core.library.learner.mastery import Signal

    recovering = score([Signal(at(2), "quiz", "correct", "c/q2"),
                        Signal(at(1), "quiz", "miss", "c/q1")])
    slipping = score([Signal(at(1), "quiz", "correct", "c/q1"),
                      Signal(at(2), "quiz", "miss", "c/q2")])
    assert recovering.value is not None and slipping.value is not None
    assert recovering.value > slipping.value
    assert recovering.explanation[0].startswith("score 0.68")  # BKT (issue 15)
    assert any("quiz c/q2" in line and "correct" in line for line in recovering.explanation)


def test_prerequisites_gate_via_follows_edges():
    ledgers = Ledgers(
        propositions=[prop("a"), prop("b"), prop("c")],
        edges=[edge("a", "b"), edge("c", "b", "supports")],
        quiz_events=[quiz("a", "miss", 1)],
        checkpoints=[cp("r1")])
    snap = fold_snapshot(ledgers)
    b = snap.gate("b")
    assert b is not None and not b.ready
    assert b.blocking == (("a", 0.2385),)  # one miss under BKT (issue 15)
    assert snap.gate("a") is None and snap.gate("c") is None
    ledgers2 = Ledgers(propositions=ledgers.propositions, edges=ledgers.edges,
                       quiz_events=[quiz("a", "correct", 1)], checkpoints=[cp("r1")])
    assert fold_snapshot(ledgers2).gate("b").ready


def test_records_of_runs_without_checkpoint_are_ignored():
    ledgers = Ledgers(propositions=[prop("a", "r1"), prop("b", "r_dead")],
                      quiz_events=[quiz("a", "miss", 1, run="r_dead")],
                      edges=[edge("a", "b", run="r_dead")], checkpoints=[cp("r1")])
    snap = fold_snapshot(ledgers)
    assert [n.id for n in snap.nodes] == ["a"] and snap.edges == ()
    assert state_of(snap, "a") == "not-tried"
    assert snap.runs == frozenset({"r1"})


def test_identity_links_and_repeated_text_merge_into_one_node():
    link = IdentityLinked(id="idl_1", node_id="a", text="Same fact, other words.",
                          evidence=(Evidence(source_id="chat_2", message_id="m_9", quote="x y"),),
                          source_id="chat_2", run_id="r2", at=at(5))
    ledgers = Ledgers(propositions=[prop("a"), prop("a", "r2", minute=5)], identities=[link],
                      quiz_events=[quiz("a", "correct", 1), quiz("a", "correct", 1, run="r2")],
                      checkpoints=[cp("r1"), cp("r2")])
    [node] = fold_snapshot(ledgers).nodes
    assert node.text == "Fact a."  # the earliest statement names the node
    assert node.sources == (CHAT, "chat_2")
    assert [e.message_id for e in node.evidence] == ["m_1", "m_9"]
    assert len(node.quiz) == 1  # the same question linked by two runs is one event


def test_incremental_fold_equals_a_fresh_fold_and_survives_rewrites():
    full = Ledgers(propositions=[prop("a"), prop("b", "r2")], edges=[edge("a", "b", run="r2")],
                   quiz_events=[quiz("b", "correct", 3, run="r2")],
                   checkpoints=[cp("r1"), cp("r2")])
    fold = GraphFold()
    # r2's records arrive before its checkpoint: they wait, then count.
    fold.update(Ledgers(propositions=full.propositions, edges=full.edges,
                        quiz_events=full.quiz_events, checkpoints=[cp("r1")]))
    assert [n.id for n in fold.snapshot().nodes] == ["a"]
    fold.update(full)
    assert fold.snapshot() == fold_snapshot(full)
    assert fold.snapshot() is not fold.snapshot()  # cheap to re-take, same content
    # A ledger that shrank (rewritten file) is folded again from scratch.
    fold.update(Ledgers(propositions=[prop("a")], checkpoints=[cp("r1")]))
    assert [n.id for n in fold.snapshot().nodes] == ["a"] and fold.snapshot().edges == ()


def test_json_export_carries_the_trail_and_clusters_and_positions():
    ledgers = Ledgers(propositions=[prop("a"), prop("b")], edges=[edge("a", "b")],
                      quiz_events=[quiz("b", "correct", 2)], checkpoints=[cp("r1")])
    snap = fold_snapshot(ledgers, clusters=[Cluster(id="k1", node_ids=("a", "zz"), label="L",
                                                    region="k1"),
                                            Cluster(id="k2", node_ids=("zz",))],
                         positions={"a": Position(x=1.0, y=2.0), "zz": Position(x=0, y=0)})
    data = json.loads(json.dumps(snapshot_to_dict(snap)))
    assert data["clusters"] == [{"id": "k1", "node_ids": ["a"], "label": "L", "region": "k1"}]
    a, b = data["nodes"]
    assert a["position"] == {"x": 1.0, "y": 2.0} and a["cluster"] == "k1"
    assert b["state"] == "solid" and b["quiz"][0]["verdict"] == "correct"
    assert b["ready"] is False and b["blocked_by"] == [{"id": "a", "score": None}]
    assert data["edges"] == [{"id": "edg_a_b_follows_r1", "from": "a", "to": "b",
                              "kind": "follows"}]


def test_graphml_is_valid_xml_even_with_hostile_text():
    hostile = 'x < y & "quotes" \'apos\' ]]> \x00\x07\x1b bell \ufffe end'
    ledgers = Ledgers(propositions=[prop("a", text=hostile), prop('b"<&>')],
                      edges=[edge("a", 'b"<&>')], checkpoints=[cp("r1")])
    xml = snapshot_to_graphml(fold_snapshot(ledgers))
    root = ET.fromstring(xml.encode("utf-8"))
    ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
    nodes = root.findall(".//g:node", ns)
    assert [n.get("id") for n in nodes] == ["a", 'b"<&>']
    text = nodes[0].find("g:data[@key='text']", ns).text
    assert text == "x < y & \"quotes\" 'apos' ]]>  bell  end"
    [e] = root.findall(".//g:edge", ns)
    assert (e.get("source"), e.get("target")) == ("a", 'b"<&>')
    assert nodes[0].find("g:data[@key='score']", ns) is None  # absent, not zero


def test_an_earlier_statement_arriving_later_reorders_the_nodes():
    first = Ledgers(propositions=[prop("a", "r1", minute=10), prop("b", "r1", minute=5)],
                    checkpoints=[cp("r1")])
    fold = GraphFold()
    fold.update(first)
    assert [n.id for n in fold.snapshot().nodes] == ["b", "a"]
    full = Ledgers(propositions=[*first.propositions, prop("a", "r2", minute=0)],
                   checkpoints=[cp("r1"), cp("r2")])
    fold.update(full)
    assert [n.id for n in fold.snapshot().nodes] == ["a", "b"]
    assert fold.snapshot() == fold_snapshot(full)


def test_an_edge_waits_for_its_nodes_and_self_loops_never_show():
    early = Ledgers(propositions=[prop("a")], edges=[edge("a", "b"), edge("a", "a")],
                    checkpoints=[cp("r1")])
    fold = GraphFold()
    fold.update(early)
    assert fold.snapshot().edges == ()
    later = Ledgers(propositions=[prop("a"), prop("b", "r2")], edges=early.edges,
                    checkpoints=[cp("r1"), cp("r2")])
    fold.update(later)
    assert [(e.source, e.target) for e in fold.snapshot().edges] == [("a", "b")]
    assert fold.snapshot() == fold_snapshot(later)
