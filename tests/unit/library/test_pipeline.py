"""One batch through extractor → auditor → merger with scripted models, incl. adversarial ones."""

from __future__ import annotations

import pytest
from studyhall.adapters.fakes import FixedClock, InMemoryGraphStore, SequentialIds
from studyhall.core.agents.auditor import ModelAuditor
from studyhall.core.agents.extractor import ModelExtractor, render_batch
from studyhall.core.contracts.graph import Evidence, PropositionCreated, RunCheckpoint
from studyhall.core.errors import ModelOutputInvalid
from studyhall.core.library.extraction.batching import Batch
from studyhall.core.library.extraction.coverage import chat_views, covered_fingerprints, uncovered
from studyhall.core.library.extraction.finding_placement import Session
from studyhall.core.library.extraction.findings import KeepAllAuditor, NodeRef
from studyhall.core.library.extraction.merge_base import SharedGraph
from studyhall.core.library.extraction.merger import node_id_for
from studyhall.core.library.extraction.pipeline import ExtractionPipeline
from studyhall.core.library.extraction.source_kinds import chat_transcript
from studyhall.core.library.graph.snapshot import GraphFold, graph_snapshot, read_ledgers

from tests.support.chat_script import scripted
from tests.support.library_session import CHAT, T0, good_extraction, keep_all, session


def batch() -> Batch:
    return Batch(CHAT, tuple(chat_views(CHAT, session())))


async def run(model, store, run_id="run_1", auditor=None):
    pipeline = ExtractionPipeline(
        store=store, base=SharedGraph(store, lambda: graph_snapshot(store)),
        clock=FixedClock(T0), ids=SequentialIds())
    kind = chat_transcript(ModelExtractor(model, "extract"),
                           auditor or ModelAuditor(model, "audit"))
    return await pipeline.run_batch(batch(), kind, run_id=run_id)


def uncovered_ids(store) -> list[str]:
    runs = {c.id for c in store.checkpoints().records}
    covered = covered_fingerprints(store.coverage(CHAT).records, runs)
    return [v.message_id for v in uncovered(chat_views(CHAT, session()), covered)]


async def test_happy_path_writes_nodes_with_evidence_and_covers_the_batch():
    model = scripted(extractor=[good_extraction()], auditor=[keep_all("p1", "p2")])
    store = InMemoryGraphStore()
    plan = await run(model, store)
    snap = graph_snapshot(store)
    assert [n.text for n in snap.nodes] == [
        "A derivative is the instantaneous rate of change of a function.",
        "The derivative of a constant function is zero."]
    assert snap.nodes[0].evidence[0].quote.startswith("A derivative measures")
    assert [q.verdict for q in snap.nodes[1].quiz] == ["miss"]
    assert len(snap.edges) == 1
    assert uncovered_ids(store) == []
    cp = store.checkpoints().records[0]
    assert (cp.input_tokens, cp.output_tokens, cp.cost_usd) == (200, 40, None)
    assert plan.drops == []


async def test_extractor_sees_line_ids_and_never_the_plan_tree():
    model = scripted(extractor=[good_extraction()], auditor=[keep_all("p1", "p2")])
    await run(model, InMemoryGraphStore())
    prompt = model.requests[0].messages[-1]["content"]
    assert "m_2/1 | A derivative measures" in prompt
    assert model.requests[0].response_schema is not None
    audit_prompt = model.requests[1].messages[-1]["content"]
    assert '"nearest_existing_nodes": []' in audit_prompt


async def test_invalid_json_is_retried_once_with_the_error_shown():
    model = scripted(extractor=["{not json", good_extraction()],
                         auditor=[{"verdicts": "yes"}, keep_all("p1", "p2")])
    store = InMemoryGraphStore()
    await run(model, store)
    retry = model.requests[1].messages
    assert retry[-2] == {"role": "assistant", "content": "{not json"}
    assert "not valid JSON" in retry[-1]["content"]
    assert "verdicts" in model.requests[3].messages[-1]["content"]
    assert len(graph_snapshot(store).nodes) == 2


@pytest.mark.parametrize("role", ["extractor", "auditor"])
async def test_malformed_output_twice_fails_cleanly_and_writes_nothing(role):
    bad = ["nope", {"propositions": [{"key": "p1"}]} if role == "extractor" else {"v": 1}]
    entries = {"extractor": [good_extraction()], "auditor": [keep_all("p1", "p2")]}
    entries[role] = bad
    store = InMemoryGraphStore()
    with pytest.raises(ModelOutputInvalid) as caught:
        await run(scripted(**entries), store)
    assert caught.value.role == role
    assert f"The {role} model answered 2 times without valid structured output" in str(
        caught.value)
    assert read_ledgers(store) == read_ledgers(InMemoryGraphStore())
    assert store.coverage(CHAT).records == ()


async def test_no_findings_means_no_auditor_call_but_the_batch_is_covered():
    model = scripted(extractor=[{"propositions": [], "edges": []}])
    store = InMemoryGraphStore()
    await run(model, store)
    assert model.calls("auditor") == 0
    assert uncovered_ids(store) == []


async def test_model_free_auditor_keeps_findings_for_the_merger_to_check():
    extraction = good_extraction()
    extraction["propositions"][1]["evidence"][0]["quote"] = "made up words"
    store = InMemoryGraphStore()
    plan = await run(scripted(extractor=[extraction]), store, auditor=KeepAllAuditor())
    assert [n.text for n in graph_snapshot(store).nodes] == [
        "A derivative is the instantaneous rate of change of a function."]
    assert {d.key for d in plan.drops} >= {"p2"}


class DiesAfter(InMemoryGraphStore):
    """Simulates a kill: the process dies right after the named append."""

    def __init__(self, fatal: str) -> None:
        super().__init__()
        self.fatal = fatal

    def __getattribute__(self, name):
        attr = super().__getattribute__(name)
        if name == super().__getattribute__("fatal"):
            def dying(*args):
                attr(*args)
                raise KeyboardInterrupt("killed")
            return dying
        return attr


@pytest.mark.parametrize("fatal", ["append_propositions", "append_edges", "append_coverage"])
async def test_kill_between_appends_is_ignored_and_the_next_run_converges(fatal):
    store = DiesAfter(fatal)
    model = scripted(extractor=[good_extraction(), good_extraction()],
                         auditor=[keep_all("p1", "p2"), keep_all("p1", "p2")])
    with pytest.raises(KeyboardInterrupt):
        await run(model, store, run_id="run_dead")
    assert store.propositions().records  # the partial run did write lines...
    fold = GraphFold()
    fold.update(read_ledgers(store))
    assert fold.snapshot().nodes == ()  # ...that count for nothing
    assert len(uncovered_ids(store)) == 4
    store.fatal = ""
    await run(model, store, run_id="run_next")
    fold.update(read_ledgers(store))
    incremental = fold.snapshot()
    fresh = graph_snapshot(store)
    assert incremental == fresh
    assert len(fresh.nodes) == 2 and len(fresh.edges) == 1
    assert sum(len(n.quiz) for n in fresh.nodes) == 2
    assert {e.run_id for n in fresh.nodes for e in n.evidence} == {"run_next"}
    assert uncovered_ids(store) == []


async def test_rendered_batch_matches_the_fingerprinted_lines():
    b = batch()
    rendered = render_batch(b)
    for view in b.views:
        for n, line in enumerate(view.lines, start=1):
            assert f"{view.message_id}/{n} | {line}" in rendered


async def test_linking_to_an_existing_node_adds_evidence_instead_of_a_duplicate():
    store = InMemoryGraphStore()
    await run(scripted(extractor=[good_extraction()], auditor=[keep_all("p1", "p2")]),
              store, run_id="run_1")
    first = graph_snapshot(store)
    derivative = first.nodes[0].id
    # A later session restates p1 in other words; the auditor sees the node and links it.
    later = {"propositions": [
        {"key": "x", "text": "Derivatives give the instantaneous rate of change.",
         "evidence": [{"message_id": "m_1", "quote": "What is a derivative, really?"}]}],
        "edges": []}
    model = scripted(extractor=[later], auditor=[keep_all("x", link={"x": derivative})])
    await run(model, store, run_id="run_2")
    assert '"id": "' + derivative in model.requests[-1].messages[-1]["content"]  # shown as near
    snap = graph_snapshot(store)
    assert len(snap.nodes) == len(first.nodes)
    node = snap.node(derivative)
    assert [e.run_id for e in node.evidence] == ["run_1", "run_2"]
    assert node.text == first.nodes[0].text  # the first statement still names it


async def test_a_sessions_floating_findings_of_two_batches_land_on_its_one_topic():
    store = InMemoryGraphStore()
    pipeline = ExtractionPipeline(
        store=store, base=SharedGraph(store, lambda: graph_snapshot(store)),
        clock=FixedClock(T0), ids=SequentialIds())
    whales = {"propositions": [{"key": "w", "text": "Whales sing underwater.", "evidence": [
        {"message_id": "m_2", "quote": "A derivative measures"}]}], "edges": []}
    for n, (extraction, keys) in enumerate(((good_extraction(), ("p1", "p2")), (whales, ("w",)))):
        model = scripted(extractor=[extraction], auditor=[keep_all(*keys)])
        kind = chat_transcript(ModelExtractor(model, "extract"), ModelAuditor(model, "audit"),
                               session=Session(CHAT, "Derivatives"))
        await pipeline.run_batch(batch(), kind, run_id=f"run_{n}")
    snap = graph_snapshot(store)
    [topic] = [n.id for n in snap.nodes if n.text == "Derivatives"]  # one per session
    by_text = {n.id: n.text for n in snap.nodes}
    assert sorted(by_text[e.source] for e in snap.edges if e.target == topic) == [
        "A derivative is the instantaneous rate of change of a function.",
        "Whales sing underwater."]


class _ByMeaning:
    """Candidate topics by meaning: what the graph search would find for each text."""

    def __init__(self, found: dict[str, list[NodeRef]]) -> None:
        self._found = found

    async def nearest(self, texts, k):
        return [self._found.get(t, [])[:k] for t in texts]


class _Vectors:
    model_id = "test-vectors"

    def __init__(self, vectors: dict[str, tuple[float, ...]]) -> None:
        self._vectors = vectors

    async def embed(self, texts):
        return [self._vectors.get(t, (0.0, 1.0)) for t in texts]


async def test_a_finding_worded_unlike_its_topic_attaches_to_it_by_meaning():
    store = InMemoryGraphStore()
    store.append_propositions([PropositionCreated(
        id="prp_m", node_id="n_mammals", text="Marine mammals", source_id="note:sea.md",
        evidence=(Evidence(source_id="note:sea.md", message_id="note:sea.md#0",
                           quote="# Marine mammals"),), run_id="run_notes", at=T0)])
    store.append_checkpoint(RunCheckpoint(id="run_notes", source_id="note:sea.md",
                                          started_at=T0, finished_at=T0))
    pipeline = ExtractionPipeline(
        store=store, base=SharedGraph(store, lambda: graph_snapshot(store)),
        clock=FixedClock(T0), ids=SequentialIds())
    whales = "Whales sing underwater."  # no word in common with "Marine mammals"
    extraction = {"propositions": [{"key": "w", "text": whales, "evidence": [
        {"message_id": "m_2", "quote": "A derivative measures"}]}], "edges": []}
    model = scripted(extractor=[extraction], auditor=[keep_all("w")])
    meaning = _ByMeaning({whales: [NodeRef("n_mammals", "Marine mammals")]})
    vectors = _Vectors({whales: (1.0, 0.0), "Marine mammals": (0.8, 0.6)})  # cosine 0.8
    kind = chat_transcript(ModelExtractor(model, "extract"), ModelAuditor(model, "audit"),
                           session=Session(CHAT, "Derivatives"), embedder=vectors,
                           by_meaning=meaning)
    plan = await pipeline.run_batch(batch(), kind, run_id="run_1")
    assert plan.drops == [], plan.drops
    assert [(e.source, e.target) for e in plan.edges] == [(node_id_for(whales), "n_mammals")]
