"""The merger: what it keeps, what it drops (and says why), and that it writes checkpoint last."""

from __future__ import annotations

from typing import Any

import pytest
from studyhall.adapters.fakes import InMemoryGraphStore
from studyhall.core.library.extraction.batching import Batch
from studyhall.core.library.extraction.coverage import chat_views
from studyhall.core.library.extraction.findings import AuditorOutput, ExtractorOutput
from studyhall.core.library.extraction.merger import KnownGraph, node_id_for, plan_merge
from studyhall.core.library.graph.snapshot import graph_snapshot

from tests.support.library_session import CHAT, at, good_extraction, keep_all, session
from tests.support.merging import merge_run


def batch() -> Batch:
    return Batch(CHAT, tuple(chat_views(CHAT, session())))


def plan(extraction: dict[str, Any], audit: dict[str, Any], known: KnownGraph | None = None,
         run_id: str = "run_1"):
    return plan_merge(batch(), ExtractorOutput.model_validate(extraction),
                      AuditorOutput.model_validate(audit), known or KnownGraph(), run_id=run_id,
                      started_at=at(10), at=at(11))


def reasons(p) -> list[str]:
    return [str(d) for d in p.drops]


def test_valid_findings_become_nodes_with_evidence_observations_and_quiz_events():
    p = plan(good_extraction(), keep_all("p1", "p2"))
    assert p.drops == []
    assert [r.text for r in p.propositions] == [
        "A derivative is the instantaneous rate of change of a function.",
        "The derivative of a constant function is zero."]
    assert p.propositions[1].evidence[0].message_id == "m_3"  # a line id cites its message
    assert [(o.level, o.message_ids) for o in p.observations] == [("partial", ("m_2",)),
                                                                   ("solid", ("m_3",))]
    assert [(q.tool_call_id, q.question_index, q.verdict) for q in p.quiz_events] == [
        ("call_q", 0, "correct"), ("call_q", 1, "miss")]
    [edge] = p.edges
    assert (edge.source, edge.target, edge.relation) == (p.propositions[0].node_id,
                                                         p.propositions[1].node_id, "follows")
    assert [c.message_id for c in p.coverage] == ["m_1", "m_2", "m_3", "m_4"]
    assert p.checkpoint is not None and p.checkpoint.propositions == 2


def test_quiz_verdicts_and_times_come_from_the_transcript_not_the_model():
    extraction = good_extraction()
    # The model claims the learner is solid on p2, whose quiz question was missed.
    extraction["propositions"][1]["understanding"] = "solid"
    p = plan(extraction, keep_all("p1", "p2"))
    missed = next(q for q in p.quiz_events if q.question_index == 1)
    assert missed.verdict == "miss" and missed.at == at(4)  # the output's answered_at


def test_invented_quote_is_dropped_with_reason():
    extraction = good_extraction()
    extraction["propositions"][0]["evidence"] = [
        {"message_id": "m_2", "quote": "derivatives were invented by Newton"}]
    p = plan(extraction, keep_all("p1", "p2"))
    assert [r.text for r in p.propositions] == ["The derivative of a constant function is zero."]
    assert any("quote not found verbatim in 'm_2'" in r for r in reasons(p))
    assert any(r.startswith("proposition p1: no evidence quote survived") for r in reasons(p))
    # The edge from the dropped finding goes too, and says so.
    assert p.edges == [] and any("joins a dropped finding" in r for r in reasons(p))


def test_quote_from_the_wrong_message_is_dropped():
    extraction = good_extraction()
    extraction["propositions"][0]["evidence"] = [
        {"message_id": "m_3", "quote": "A derivative measures the instantaneous rate of change"}]
    p = plan(extraction, keep_all("p1", "p2"))
    assert any(r.startswith("evidence p1: quote not found verbatim in 'm_3'") for r in reasons(p))
    assert [r.text for r in p.propositions] == ["The derivative of a constant function is zero."]


def test_quote_is_checked_whitespace_normalized_but_otherwise_verbatim():
    extraction = good_extraction()
    extraction["propositions"][0]["evidence"] = [
        {"message_id": "m_2", "quote": "rate of change of a function.   Formally it is"},
        {"message_id": "m_2", "quote": "rate of CHANGE of a function"},
        {"message_id": "m_9", "quote": "rate of change"},
        {"message_id": "m_2/7", "quote": "rate of change"}]
    p = plan(extraction, keep_all("p1", "p2"))
    [kept] = [r for r in p.propositions if r.text.startswith("A derivative")]
    assert [e.quote for e in kept.evidence] == ["rate of change of a function. Formally it is"]
    assert len([d for d in p.drops if d.stage == "evidence"]) == 3


def test_link_to_an_unknown_node_is_dropped_not_repaired():
    p = plan(good_extraction(), keep_all("p1", "p2", link={"p1": "n_nope"}))
    assert any("link_to 'n_nope' names no existing node" in r for r in reasons(p))
    assert [r.text for r in p.propositions] == ["The derivative of a constant function is zero."]


def test_link_to_an_existing_node_adds_evidence_instead_of_a_duplicate():
    known = KnownGraph(node_ids=frozenset({"n_old"}))
    p = plan(good_extraction(), keep_all("p1", "p2", link={"p1": "n_old"}), known)
    assert [r.node_id for r in p.identities] == ["n_old"]
    assert len(p.propositions) == 1
    assert p.edges[0].source == "n_old"
    assert p.quiz_events[0].node_id == "n_old"


def test_same_text_as_an_existing_node_lands_on_that_node():
    text = "The derivative of a constant function is zero."
    known = KnownGraph(node_ids=frozenset({node_id_for("  the derivative of a CONSTANT "
                                                       "function is zero. ")}))
    p = plan(good_extraction(), keep_all("p1", "p2"), known)
    assert [r.text for r in p.identities] == [text]


def test_auditor_drops_and_missing_verdicts_are_logged():
    audit = {"verdicts": [{"key": "p1", "keep": False, "reason": "not world-facing"}]}
    p = plan(good_extraction(), audit)
    assert p.propositions == []
    assert "proposition p1: auditor dropped it: not world-facing" in reasons(p)
    assert "proposition p2: the auditor gave no verdict for it" in reasons(p)


def test_duplicate_self_loop_and_unknown_edges_are_dropped():
    extraction = good_extraction()
    extraction["edges"] = [
        {"from": "p1", "to": "p2", "kind": "follows"},
        {"from": "p1", "to": "p2", "kind": "follows"},
        {"from": "p2", "to": "p2", "kind": "supports"},
        {"from": "p1", "to": "n_ghost", "kind": "supports"},
        {"from": "p2", "to": "p1", "kind": "supports"},
    ]
    p = plan(extraction, keep_all("p1", "p2"))
    assert [(e.relation) for e in p.edges] == ["follows", "supports"]
    assert "edge p1->p2: duplicate follows edge" in reasons(p)
    assert "edge p2->p2: self-loop" in reasons(p)
    assert any("'n_ghost' is neither a kept finding nor an existing node" in r
               for r in reasons(p))


def test_edge_already_in_the_graph_is_a_duplicate():
    a = node_id_for("A derivative is the instantaneous rate of change of a function.")
    b = node_id_for("The derivative of a constant function is zero.")
    known = KnownGraph(node_ids=frozenset({a, b}), edges=frozenset({(a, b, "follows")}))
    p = plan(good_extraction(), keep_all("p1", "p2"), known)
    assert p.edges == [] and "edge p1->p2: duplicate follows edge" in reasons(p)


def test_duplicate_keys_and_unknown_quiz_refs_are_dropped():
    extraction = good_extraction()
    extraction["propositions"].append(dict(extraction["propositions"][0]))
    extraction["propositions"][1]["quizzes"] = ["call_q/q9", "call_other/q1"]
    p = plan(extraction, keep_all("p1", "p2"))
    assert "proposition p1: duplicate key in the extractor output" in reasons(p)
    assert len([d for d in p.drops if d.stage == "quiz-link"]) == 2
    assert [q.question_index for q in p.quiz_events] == [0]


def test_ungraded_quiz_yields_no_event():
    views = chat_views(CHAT, session(graded=False))
    p = plan_merge(Batch(CHAT, tuple(views)), ExtractorOutput.model_validate(good_extraction()),
                   AuditorOutput.model_validate(keep_all("p1", "p2")), KnownGraph(),
                   run_id="r", started_at=at(0), at=at(1))
    assert p.quiz_events == []
    assert all(d.stage == "quiz-link" for d in p.drops) and len(p.drops) == 2


class RecordingStore(InMemoryGraphStore):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    def __getattribute__(self, name: str):
        attr = super().__getattribute__(name)
        if name.startswith("append_"):
            super().__getattribute__("calls").append(name)
        return attr


def test_checkpoint_is_written_last():
    store = RecordingStore()
    merge_run(batch(), ExtractorOutput.model_validate(good_extraction()),
              AuditorOutput.model_validate(keep_all("p1", "p2")), KnownGraph(), store,
              run_id="run_1", started_at=at(10), at=at(11))
    assert store.calls[-1] == "append_checkpoint"
    assert store.calls[:-1] == ["append_propositions", "append_edges", "append_observations",
                                "append_quiz_events", "append_coverage"]


@pytest.mark.parametrize("store_kind", ["memory", "file"])
def test_replaying_the_same_merge_writes_nothing_new(store_kind, tmp_path):
    from studyhall.adapters.store import JsonlGraphStore

    store = InMemoryGraphStore() if store_kind == "memory" else JsonlGraphStore(tmp_path / "g")
    args = (batch(), ExtractorOutput.model_validate(good_extraction()),
            AuditorOutput.model_validate(keep_all("p1", "p2")), KnownGraph(), store)
    merge_run(*args, run_id="run_1", started_at=at(10), at=at(11))
    first = graph_snapshot(store)
    merge_run(*args, run_id="run_1", started_at=at(10), at=at(11))
    again = graph_snapshot(store)
    assert again == first
    assert len(store.propositions().records) == 2
    assert len(store.checkpoints().records) == 1
    assert len(store.coverage(CHAT).records) == 4
