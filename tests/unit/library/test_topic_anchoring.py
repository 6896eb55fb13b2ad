"""Nothing learned floats free: a session's kept finding that joins nothing gets an edge to its
nearest existing node; linked, dropped or already connected findings get none; a group of new
findings joined only to each other is tied once; a finding nothing is near hangs under the
session's hub."""

from __future__ import annotations

from studyhall.core.library.extraction.findings import (
    AuditorOutput,
    EdgeFinding,
    EvidenceClaim,
    ExtractorOutput,
    NodeRef,
    PropositionFinding,
    Verdict,
)
from studyhall.core.library.extraction.topic_anchoring import anchor_floating


def finding(key: str) -> PropositionFinding:
    return PropositionFinding(key=key, text=f"{key} text",
                              evidence=(EvidenceClaim(message_id="m1", quote="q"),))


def test_a_floating_session_finding_gets_an_edge_to_its_nearest_node():
    findings = ExtractorOutput(
        propositions=tuple(finding(k) for k in ("free", "linked", "dropped", "joined", "alone")),
        edges=(EdgeFinding.model_validate({"from": "joined", "to": "n_x", "kind": "follows"}),))
    audit = AuditorOutput(verdicts=(
        Verdict(key="free", keep=True), Verdict(key="linked", keep=True, link_to="n_topic"),
        Verdict(key="dropped", keep=False), Verdict(key="joined", keep=True),
        Verdict(key="alone", keep=True)))
    near = {k: [NodeRef("n_topic", "Topic"), NodeRef("n_other", "Other")]
            for k in ("free", "linked", "dropped", "joined")}
    out = anchor_floating(findings, audit, near)
    added = [(e.source, e.target, e.kind) for e in out.edges[1:]]
    # "alone" has no neighbour: it hangs under the first finding tied to the graph.
    assert added == [("free", "n_topic", "supports"), ("alone", "free", "supports")]


def test_an_island_of_new_findings_is_tied_to_the_graph_once():
    findings = ExtractorOutput(
        propositions=tuple(finding(k) for k in ("a", "b", "c")),
        edges=(EdgeFinding.model_validate({"from": "a", "to": "b", "kind": "follows"}),
               EdgeFinding.model_validate({"from": "c", "to": "c", "kind": "follows"})))
    audit = AuditorOutput(verdicts=tuple(Verdict(key=k, keep=True) for k in "abc"))
    near = {"b": [NodeRef("n_topic", "Topic")], "c": [NodeRef("n_other", "Other")]}
    out = anchor_floating(findings, audit, near)
    # a and b form one group, tied through b (a has no neighbour); a self-loop joins nothing.
    assert [(e.source, e.target) for e in out.edges[2:]] == [("b", "n_topic"), ("c", "n_other")]


def test_with_nothing_near_the_batch_hangs_under_its_first_finding():
    findings = ExtractorOutput(propositions=tuple(finding(k) for k in ("first", "x", "y")))
    audit = AuditorOutput(verdicts=tuple(Verdict(key=k, keep=True) for k in ("first", "x", "y")))
    out = anchor_floating(findings, audit, {})  # an empty graph: the session's first idea
    assert [(e.source, e.target, e.kind) for e in out.edges] == [
        ("x", "first", "supports"), ("y", "first", "supports")]


def test_nothing_to_anchor_leaves_the_findings_as_they_were():
    findings = ExtractorOutput(propositions=(finding("a"),), edges=())
    audit = AuditorOutput(verdicts=(Verdict(key="a", keep=True),))
    assert anchor_floating(findings, audit, {}) is findings
