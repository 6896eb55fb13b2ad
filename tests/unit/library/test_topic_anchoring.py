"""Nothing learned floats free: a session's kept finding that joins nothing gets an edge to its
nearest existing node; linked, dropped or already connected findings get none."""

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
    out = anchor_floating(findings, audit, near)  # "alone" has no neighbour: nothing to join
    added = [(e.source, e.target, e.kind) for e in out.edges[1:]]
    assert added == [("free", "n_topic", "supports")]


def test_nothing_to_anchor_leaves_the_findings_as_they_were():
    findings = ExtractorOutput(propositions=(finding("a"),), edges=())
    audit = AuditorOutput(verdicts=(Verdict(key="a", keep=True),))
    assert anchor_floating(findings, audit, {}) is findings
