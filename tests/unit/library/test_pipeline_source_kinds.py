"""One pipeline for every source kind: notes planned into a group run (written at once, checkpoint
last), a later note seeing the earlier notes' nodes, known edges left out, link views made edges,
and a chat batch planned alike against either merge base."""

from __future__ import annotations

from datetime import UTC, datetime

from studyhall.adapters.fakes import FixedClock, InMemoryGraphStore, SequentialIds
from studyhall.core.agents.auditor import ModelAuditor
from studyhall.core.agents.extractor import ModelExtractor
from studyhall.core.contracts.chat import Usage
from studyhall.core.contracts.graph import RunCheckpoint
from studyhall.core.library.extraction.batching import Batch, batches_of, whole_source
from studyhall.core.library.extraction.coverage import chat_views, make_view
from studyhall.core.library.extraction.link_extractor import LinkExtractor
from studyhall.core.library.extraction.merge_base import SharedGraph, TrackedGraph
from studyhall.core.library.extraction.merger import MergePlan
from studyhall.core.library.extraction.nearest import NeighbourFinder
from studyhall.core.library.extraction.pipeline import ExtractionPipeline
from studyhall.core.library.extraction.source_kinds import (
    chat_transcript,
    note_links,
    notes_by_structure,
)
from studyhall.core.library.extraction.structural_extractor import StructuralExtractor
from studyhall.core.library.extraction.tally import MergeTally
from studyhall.core.library.graph.snapshot import graph_snapshot
from studyhall.core.library.sources.notes import parse_note
from studyhall.core.library.sources.notes.views import note_views

from tests.support.chat_script import scripted
from tests.support.library_session import CHAT, T0, good_extraction, keep_all, session

AT = datetime(2026, 1, 1, tzinfo=UTC)
SHARED = "Enzymes lower the activation energy of reactions."
NOTES = {
    "note_a": ("Alpha.md", f"# Alpha\n{SHARED}\n\n## Detail\n- Alpha details are listed here.\n"),
    "note_b": ("Beta.md", f"# Beta\n{SHARED}\nBeta has its own statement too.\n"),
}
# Another note titled "Alpha" (in another folder): the same concept, so the same topic node.
ALPHA_TOO = ("more/Alpha.md", "# Alpha\nA second Alpha note adds its own evidence.\n")


def importer(store: InMemoryGraphStore) -> tuple[ExtractionPipeline, StructuralExtractor]:
    pipeline = ExtractionPipeline(
        store=store, base=TrackedGraph(store, graph_snapshot(store)), clock=FixedClock(AT),
        ids=SequentialIds(), group_source="vault_x")
    return pipeline, StructuralExtractor()


def views(source_id: str):
    path, text = NOTES.get(source_id, ALPHA_TOO)
    doc = parse_note(path, text)
    return doc, [sv.view for sv in note_views(doc, source_id, AT)]


async def plan_notes(pipeline, structural, ids=tuple(NOTES)) -> list[MergePlan]:
    kind = notes_by_structure(structural)
    plans = []
    for source_id in ids:
        doc, note = views(source_id)
        structural.add_note(source_id, doc)
        for batch in pipeline.batches(note, kind, 1_000):
            plans.append(await pipeline.run_batch(batch, kind))
    return plans


async def test_grouped_notes_write_nothing_until_the_group_commits_under_one_checkpoint():
    store = InMemoryGraphStore()
    pipeline, structural = importer(store)
    await plan_notes(pipeline, structural)
    assert pipeline.pending == 2
    assert store.propositions().records == () and store.checkpoints().records == ()
    plans = pipeline.commit_group()
    assert len(plans) == 2 and pipeline.pending == 0
    [checkpoint] = store.checkpoints().records
    assert checkpoint.source_id == "vault_x"
    assert {p.run_id for p in plans} == {checkpoint.id}
    nodes = {n.text: n for n in graph_snapshot(store).nodes}
    # Was: every sentence a node, then every heading ("Alpha: Detail"). Now the notes are the
    # nodes; their headings are sections and sentences their evidence (issue 28 item 1).
    assert set(nodes) == {"Alpha", "Beta"}
    assert SHARED in {e.quote for e in nodes["Alpha"].evidence}
    assert {SHARED, "Beta has its own statement too."} <= {e.quote for e in nodes["Beta"].evidence}
    for source_id in NOTES:
        assert pipeline.uncovered(views(source_id)[1]) == []


async def test_a_later_note_of_the_group_adds_evidence_to_an_earlier_notes_node():
    store = InMemoryGraphStore()
    pipeline, structural = importer(store)
    first, second = await plan_notes(pipeline, structural, ["note_a", "note_c"])
    assert "Alpha" in {r.text for r in first.propositions}
    assert "Alpha" not in {r.text for r in second.propositions}
    assert [r.text for r in second.identities] == ["Alpha"]
    pipeline.commit_group()
    [node] = [n for n in graph_snapshot(store).nodes if n.text == "Alpha"]
    assert {e.source_id for e in node.evidence} == {"note_a", "note_c"}


async def test_a_discarded_group_writes_nothing_and_leaves_the_notes_uncovered():
    store = InMemoryGraphStore()
    pipeline, structural = importer(store)
    await plan_notes(pipeline, structural)
    pipeline.discard_group()
    assert pipeline.commit_group() == []
    assert store.checkpoints().records == () and store.edges().records == ()
    fresh, _ = importer(store)
    assert fresh.uncovered(views("note_a")[1]) == views("note_a")[1]


async def test_a_note_extracted_again_adds_nothing_and_drops_nothing():
    store = InMemoryGraphStore()
    pipeline, structural = importer(store)
    [first] = await plan_notes(pipeline, structural, ["note_a"])
    pipeline.commit_group()
    # Was: the heading "Detail" made a hierarchy edge here, re-stated below. Headings are
    # sections now (issue 28 item 1): the note's edges are its links, made by link_extractor.
    assert first.edges == [] and first.propositions
    again, structural = importer(store)
    doc, note = views("note_a")
    structural.add_note("note_a", doc)
    # The same section extracted again (as a changed note would be): nothing new, nothing dropped.
    replan = await again.run_batch(whole_source(note)[0], notes_by_structure(structural))
    assert replan.edges == [] and replan.drops == []


class NoNeighbours(TrackedGraph):
    def neighbours(self) -> NeighbourFinder:
        raise AssertionError("the model-free auditor judges nothing against neighbours")


async def test_the_model_free_auditor_costs_no_neighbour_lookup():
    store = InMemoryGraphStore()
    pipeline = ExtractionPipeline(store=store, base=NoNeighbours(store, graph_snapshot(store)),
                                  clock=FixedClock(AT), ids=SequentialIds())
    plans = await plan_notes(pipeline, StructuralExtractor(), ["note_a"])
    assert plans[0].propositions


async def test_link_views_become_supports_edges_each_once_per_batch():
    store = InMemoryGraphStore()
    pipeline, structural = importer(store)
    await plan_notes(pipeline, structural)
    pipeline.commit_group()
    by_text = {n.text: n.id for n in graph_snapshot(store).nodes}
    pair = (by_text["Beta"], by_text["Alpha"])
    link_views = [make_view("links_v", f"{sid}@links", "note-links", [f"{sid} -> Alpha.md"], AT)
                  for sid in NOTES]
    # (Each pair now with how many links it stands for: issue 28's edge weight.)
    kind = note_links(LinkExtractor({v.message_id: [(*pair, 1)] for v in link_views}), 5)
    [batch] = pipeline.batches(link_views, kind, 0)
    plan = await pipeline.run_batch(batch, kind)
    assert [(e.source, e.target, e.relation) for e in plan.edges] == [(*pair, "supports")]
    assert plan.edges[0].weight == 2  # both views' links to the pair, in one batch
    assert plan.drops == [] and pipeline.uncovered(link_views) == []
    assert [len(b.views) for b in batches_of(link_views * 3, 4)] == [4, 2]


async def test_a_chat_batch_plans_alike_against_the_shared_and_the_tracked_graph():
    def model():
        return scripted(extractor=[good_extraction()], auditor=[keep_all("p1", "p2")])

    batch = Batch(CHAT, tuple(chat_views(CHAT, session())))
    plans = []
    shared_store, tracked_store = InMemoryGraphStore(), InMemoryGraphStore()
    bases = [SharedGraph(shared_store, lambda: graph_snapshot(shared_store)),
             TrackedGraph(tracked_store, graph_snapshot(tracked_store))]
    for store, base in zip((shared_store, tracked_store), bases):
        pipeline = ExtractionPipeline(store=store, base=base, clock=FixedClock(T0),
                                      ids=SequentialIds())
        m = model()
        kind = chat_transcript(ModelExtractor(m, "extract"), ModelAuditor(m, "audit"))
        plans.append(await pipeline.run_batch(batch, kind, run_id="run_1"))
    shared, tracked = plans
    assert shared == tracked and len(shared.propositions) == 2 and len(shared.quiz_events) == 2


def test_the_tally_adds_plans_and_keeps_usage_absent_until_a_call_reports_some():
    tally = MergeTally()
    plan = MergePlan("run_1")
    tally.add(plan)
    assert (tally.batches, tally.propositions, tally.usage) == (1, 0, None)
    plan.checkpoint = RunCheckpoint(id="run_1", source_id="s", started_at=AT, finished_at=AT,
                                    propositions=0, edges=0, dropped=0, input_tokens=7)
    tally.add(plan)
    tally.add(plan)
    assert tally.usage == Usage(input_tokens=14)
