"""The model-free extractor: a note's title is its one topic node; its headings are its sections
(quoted on the topic from each section's view, never nodes), its sentences the evidence on the
topic (never nodes of their own), no heading-hierarchy edges — and every quote passes the
merger's verbatim check."""

from __future__ import annotations

from datetime import UTC, datetime

from studyhall.core.library.extraction.batching import Batch
from studyhall.core.library.extraction.findings import AuditorOutput, Verdict
from studyhall.core.library.extraction.merger import KnownGraph, node_id_for, plan_merge
from studyhall.core.library.extraction.structural_extractor import extract_structure
from studyhall.core.library.sources.notes import parse_note
from studyhall.core.library.sources.notes.views import note_views

from tests.support.structural_note import NOTE

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def extract(text: str = NOTE, path: str = "bio/Mitochondria.md"):
    doc = parse_note(path, text)
    views = tuple(sv.view for sv in note_views(doc, "note_m", T0))
    batch = Batch("note_m", views)
    return batch, extract_structure({"note_m": doc}, batch)


def test_the_title_is_the_only_node():
    _, out = extract()
    # Was: one proposition per sentence (12 nodes), then one per heading (2, issue 28 item 1:
    # the heading "Mitochondria: Structure" is a section now). Now: the note alone.
    assert [p.text for p in out.propositions] == ["Mitochondria"]
    assert all(p.key == node_id_for(p.text) for p in out.propositions)


def test_sentences_are_evidence_quotes_on_the_note_topic_cited_from_their_section():
    _, out = extract()
    [root] = out.propositions
    structure = [e for e in root.evidence if e.message_id == "note_m#Mitochondria#Structure"]
    # The H1 that repeats the title is the root itself: its heading is quoted on the root too.
    assert [e.quote for e in root.evidence] == [
        "# Mitochondria",
        "Mitochondria are the **powerhouse** of the cell.",
        "They have their own DNA.",
        "# Mitochondria",
        ("Mitochondria produce ATP via [[Krebs cycle|the Krebs cycle]] and oxidative "
        "phosphorylation."),
        "Glycolysis happens in the cytoplasm.",
        "It yields two pyruvate molecules.",
        "The Krebs cycle runs in the matrix.",
        "The electron transport chain pumps protons.",
        "A quoted statement is long enough.",
        "Its second line stands alone.",
        "## Structure",
        "The inner membrane folds into cristae. ^cristae",
    ]
    assert [e.message_id for e in root.evidence][:3] == ["note_m#", "note_m#", "note_m#"]
    # A bare link and a code block are not statements; the section's heading comes first.
    assert [e.quote for e in structure] == [
        "## Structure",
        "The inner membrane folds into cristae. ^cristae",  # verbatim: the block id stays
    ]


def test_headings_make_no_edges():
    _, out = extract()
    # Was: ("Mitochondria: Structure", "supports", "Mitochondria"), a heading-hierarchy edge.
    assert out.edges == ()


def test_every_finding_survives_the_merger_checks():
    batch, out = extract()
    audit = AuditorOutput(verdicts=tuple(Verdict(key=p.key, keep=True) for p in out.propositions))
    plan = plan_merge(batch, out, audit, KnownGraph(), run_id="r1", started_at=T0, at=T0)
    assert plan.drops == []
    assert len(plan.propositions) == len(out.propositions)
    assert len(plan.edges) == len(out.edges)


def test_a_changed_section_extracts_alone_as_new_evidence_on_the_note_topic():
    batch, out = extract()
    first = plan_merge(
        batch,
        out,
        AuditorOutput(verdicts=tuple(Verdict(key=p.key, keep=True) for p in out.propositions)),
        KnownGraph(),
        run_id="r1",
        started_at=T0,
        at=T0,
    )
    known = KnownGraph(
        frozenset(p.node_id for p in first.propositions),
        frozenset((e.source, e.target, e.relation) for e in first.edges),
    )
    changed = NOTE.replace("folds into cristae", "folds into many cristae")
    doc = parse_note("bio/Mitochondria.md", changed)
    views = [sv.view for sv in note_views(doc, "note_m", T0)]
    old = {v.fingerprint for v in batch.views}
    fresh = tuple(v for v in views if v.fingerprint not in old)
    assert [v.message_id for v in fresh] == ["note_m#Mitochondria#Structure"]
    out2 = extract_structure({"note_m": doc}, Batch("note_m", fresh))
    plan = plan_merge(
        Batch("note_m", fresh),
        out2,
        AuditorOutput(verdicts=tuple(Verdict(key=p.key, keep=True) for p in out2.propositions)),
        known,
        run_id="r2",
        started_at=T0,
        at=T0,
    )
    # Was: the section re-stated its place in the heading hierarchy (a duplicate edge dropped).
    # No hierarchy edges now: nothing to drop.
    assert plan.drops == []
    # Was: the edited sentence became a new node, then new evidence on the section's heading
    # node. Now its new wording is new evidence on the note's topic, cited from its section.
    assert plan.propositions == []
    assert [i.text for i in plan.identities] == ["Mitochondria"]
    assert {e.message_id for e in plan.identities[0].evidence} == {
        "note_m#Mitochondria#Structure"}
    assert [e.quote for e in plan.identities[0].evidence] == [
        "## Structure",
        "The inner membrane folds into many cristae. ^cristae",
    ]


def test_same_input_same_output():
    assert extract()[1] == extract()[1]


def test_a_note_with_only_a_title_still_has_its_root_node():
    _, out = extract("", "Empty idea.md")
    assert [p.text for p in out.propositions] == ["Empty idea"]
    assert out.propositions[0].evidence[0].quote == "# Empty idea"
