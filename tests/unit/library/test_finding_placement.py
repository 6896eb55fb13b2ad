"""A session's findings land where they belong: under the topic each is clearly about, else under
the session's own topic (one, named for the session), never under another finding; a shared stop
word or one shared common word ties nothing."""

from __future__ import annotations

from collections.abc import Sequence

from studyhall.core.errors import StudyhallError
from studyhall.core.library.extraction.finding_placement import (
    SESSION_TOPIC_KEY,
    EmbeddingLikeness,
    Likeness,
    Session,
    WordLikeness,
    best_topics,
    place_findings,
)
from studyhall.core.library.extraction.findings import (
    AuditorOutput,
    EdgeFinding,
    EvidenceClaim,
    ExtractorOutput,
    NodeRef,
    PropositionFinding,
    Verdict,
)

SESSION = Session("chat_bio", "Biology, 2 Dec")
WORDS: Sequence[Likeness] = (WordLikeness(),)


def said(key: str, text: str) -> PropositionFinding:
    return PropositionFinding(key=key, text=text,
                              evidence=(EvidenceClaim(message_id="m1", quote=f"{key} quote"),))


def kept(*keys: str) -> AuditorOutput:
    return AuditorOutput(verdicts=tuple(Verdict(key=k, keep=True) for k in keys))


async def place(findings: ExtractorOutput, near: dict[str, list[NodeRef]],
                likeness: Sequence[Likeness] = WORDS) -> tuple[ExtractorOutput, AuditorOutput]:
    audit = kept(*(p.key for p in findings.propositions))
    best = await best_topics(findings, near, likeness)
    return place_findings(findings, audit, best, SESSION)


def ties(out: ExtractorOutput) -> list[tuple[str, str]]:
    return [(e.source, e.target) for e in out.edges]


async def test_a_finding_sharing_only_a_stop_word_with_a_topic_does_not_attach_to_it():
    findings = ExtractorOutput(propositions=(
        said("f1", "The mitochondria is the powerhouse of the cell"),))
    out, audit = await place(findings, {"f1": [NodeRef("n_fr", "The French revolution")]})
    assert ties(out) == [("f1", SESSION_TOPIC_KEY)]
    topic = out.propositions[-1]
    assert (topic.key, topic.text) == (SESSION_TOPIC_KEY, "Biology, 2 Dec")
    assert topic.evidence == findings.propositions[0].evidence[:1]
    assert any(v.key == SESSION_TOPIC_KEY and v.keep for v in audit.verdicts)


async def test_a_finding_sharing_one_common_content_word_does_not_attach_either():
    findings = ExtractorOutput(propositions=(said("f1", "Photosynthesis makes sugar in the leaf"),))
    out, _ = await place(findings, {"f1": [NodeRef("n_tax", "Sugar taxes in Europe")]})
    assert ties(out) == [("f1", SESSION_TOPIC_KEY)]


async def test_a_finding_clearly_about_a_topic_attaches_to_the_one_it_is_most_about():
    findings = ExtractorOutput(propositions=(
        said("f1", "Backlinks show every note that links to the current note"),))
    near = {"f1": [NodeRef("n_note", "Note composer: merge notes"),
                   NodeRef("n_back", "Backlinks: notes that link to the current note")]}
    out, audit = await place(findings, near)
    assert ties(out) == [("f1", "n_back")]
    assert len(out.propositions) == 1 and len(audit.verdicts) == 1  # no session topic needed


async def test_two_unrelated_findings_of_a_session_both_land_on_the_session_topic():
    findings = ExtractorOutput(propositions=(said("f1", "Whales sing underwater"),
                                             said("f2", "Bread rises because yeast makes gas")))
    out, _ = await place(findings, {})  # nothing in the graph is near either
    assert ties(out) == [("f1", SESSION_TOPIC_KEY), ("f2", SESSION_TOPIC_KEY)]
    assert [p.key for p in out.propositions].count(SESSION_TOPIC_KEY) == 1


async def test_a_group_tied_by_the_extractor_gets_one_edge_and_a_grounded_one_none():
    findings = ExtractorOutput(
        propositions=(said("f1", "Whales sing underwater"), said("f2", "Whale songs carry far"),
                      said("f3", "Graph trees have no cycles")),
        edges=(EdgeFinding.model_validate({"from": "f2", "to": "f1", "kind": "supports"}),
               EdgeFinding.model_validate({"from": "f3", "to": "n_tree", "kind": "supports"})))
    out, _ = await place(findings, {})
    assert ties(out)[2:] == [("f1", SESSION_TOPIC_KEY)]


async def test_nothing_floating_leaves_the_findings_as_they_were():
    findings = ExtractorOutput(propositions=(said("f1", "Graph trees have no cycles"),),
                               edges=(EdgeFinding.model_validate(
                                   {"from": "f1", "to": "n_tree", "kind": "supports"}),))
    audit = kept("f1")
    assert place_findings(findings, audit, {}, SESSION) == (findings, audit)


class Vectors:
    """An embedder whose vectors are given per text (unit length), or that cannot load."""

    model_id = "test-vectors"

    def __init__(self, vectors: dict[str, tuple[float, ...]] | None) -> None:
        self._vectors = vectors

    async def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        if self._vectors is None:
            raise StudyhallError("No embedding model can load here.")
        return [self._vectors[t] for t in texts]


async def test_embeddings_judge_when_present_only_above_their_calibrated_minimum():
    whales, music, trees = "Whales sing underwater", "Songs of the sea", "Graph trees"
    findings = ExtractorOutput(propositions=(said("f1", whales),))
    near = {"f1": [NodeRef("n_tree", trees), NodeRef("n_song", music)]}
    vectors = {whales: (1.0, 0.0), music: (0.6, 0.8), trees: (0.0, 1.0)}  # cosine 0.6 and 0
    out, _ = await place(findings, near, (EmbeddingLikeness(Vectors(vectors)), *WORDS))
    assert ties(out) == [("f1", "n_song")]  # no shared word, but close in meaning
    vectors[music] = (0.4, 0.9165)  # cosine 0.4: below the minimum
    out, _ = await place(findings, near, (EmbeddingLikeness(Vectors(vectors)), *WORDS))
    assert ties(out) == [("f1", SESSION_TOPIC_KEY)]


async def test_without_a_working_embedder_words_judge():
    findings = ExtractorOutput(propositions=(
        said("f1", "Backlinks show every note that links to the current note"),))
    near = {"f1": [NodeRef("n_back", "Backlinks: notes that link to the current note")]}
    out, _ = await place(findings, near, (EmbeddingLikeness(Vectors(None)), *WORDS))
    assert ties(out) == [("f1", "n_back")]


async def test_a_study_sessions_floating_findings_hang_under_the_note_it_studies():
    findings = ExtractorOutput(propositions=(said("f1", "Sift down swaps with the smaller child"),
                                             said("f2", "Bread rises because yeast makes gas")))
    near = {"f2": [NodeRef("n_bread", "Bread: yeast makes gas so bread rises")]}
    audit = kept("f1", "f2")
    best = await best_topics(findings, near, WORDS)
    studying = Session("chat_heaps", "Heaps", node_id="n_heaps")
    out, audit_out = place_findings(findings, audit, best, studying)
    assert ties(out) == [("f2", "n_bread"), ("f1", "n_heaps")]  # the clearly-about still wins
    assert SESSION_TOPIC_KEY not in [p.key for p in out.propositions]  # the note is the topic
    assert audit_out == audit
