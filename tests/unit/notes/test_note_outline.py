"""Issue 28 item 1: a note is one node and its headings are its sections — the node detail
(``GET /api/graph/nodes/{id}``) lists the note's outline from its evidence: each section's
heading, level, anchor to deep-link and message id (what its evidence cites), and how much
evidence it holds; every field the detail had before stays."""

from __future__ import annotations

from datetime import UTC, datetime

from studyhall.adapters.fakes import FixedClock, InMemoryGraphStore, SequentialIds
from studyhall.core.library.extraction.merge_base import TrackedGraph
from studyhall.core.library.extraction.merger import node_id_for
from studyhall.core.library.extraction.pipeline import ExtractionPipeline
from studyhall.core.library.extraction.source_kinds import notes_by_structure
from studyhall.core.library.extraction.structural_extractor import StructuralExtractor
from studyhall.core.library.graph.snapshot import graph_snapshot
from studyhall.core.library.sources.notes import parse_note
from studyhall.core.library.sources.notes.views import note_views
from studyhall.server.http.graph_detail import EdgeIndex, node_detail

from tests.support.structural_note import NOTE

AT = datetime(2026, 1, 1, tzinfo=UTC)
SETEXT = "Intro words are here today.\n\nA setext one\n===\nUnder it a sentence sits.\n"


async def imported(text: str, path: str, source_id: str):
    store = InMemoryGraphStore()
    pipeline = ExtractionPipeline(store=store, base=TrackedGraph(store, graph_snapshot(store)),
                                  clock=FixedClock(AT), ids=SequentialIds())
    structural = StructuralExtractor()
    doc = parse_note(path, text)
    structural.add_note(source_id, doc)
    kind = notes_by_structure(structural)
    for batch in pipeline.batches([sv.view for sv in note_views(doc, source_id, AT)], kind, 1000):
        await pipeline.run_batch(batch, kind)
    pipeline.commit_group()
    return graph_snapshot(store)


async def test_the_node_detail_lists_the_notes_sections_with_their_evidence():
    snap = await imported(NOTE, "bio/Mitochondria.md", "note_m")
    assert [n.text for n in snap.nodes] == ["Mitochondria"]  # one node: the note
    detail = node_detail(snap, node_id_for("Mitochondria"), EdgeIndex())
    assert {"node", "neighbours", "edges", "clusters", "links"} <= set(detail)
    assert detail["sections"] == [
        {"source_id": "note_m", "message_id": "note_m#", "anchor": "", "heading": "Mitochondria",
         "level": 0, "evidence": 2},
        {"source_id": "note_m", "message_id": "note_m#Mitochondria", "anchor": "Mitochondria",
         "heading": "Mitochondria", "level": 1, "evidence": 7},
        {"source_id": "note_m", "message_id": "note_m#Mitochondria#Structure",
         "anchor": "Mitochondria#Structure", "heading": "Structure", "level": 2, "evidence": 1},
    ]
    # Every evidence quote is counted under exactly one section.
    assert sum(s["evidence"] + 1 for s in detail["sections"]) == len(detail["node"]["evidence"])


async def test_a_setext_heading_is_a_section_without_its_underline():
    snap = await imported(SETEXT, "Setext.md", "note_s")
    [node] = snap.nodes
    sections = node_detail(snap, node.id, EdgeIndex())["sections"]
    assert [(s["heading"], s["level"]) for s in sections] == [("Setext", 0), ("A setext one", 1)]


async def test_a_node_not_from_a_note_has_no_sections():
    snap = await imported(NOTE, "bio/Mitochondria.md", "chat_1")
    assert node_detail(snap, snap.nodes[0].id, EdgeIndex())["sections"] == []
