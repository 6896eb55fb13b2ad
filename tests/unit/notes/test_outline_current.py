"""A note's outline lists the headings it has now (issue 28): evidence quoting a heading the
learner renamed or dropped stays on the node, but ``current`` (the note's sections at its last
import, ``Source.sections``) leaves that heading out of the outline and of the meaning text."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from studyhall.adapters.fakes import FixedClock, InMemoryGraphStore, SequentialIds
from studyhall.core.agents.study_material import study_material
from studyhall.core.contracts.sources import Source
from studyhall.core.library.extraction.merge_base import TrackedGraph
from studyhall.core.library.extraction.pipeline import ExtractionPipeline
from studyhall.core.library.extraction.source_kinds import notes_by_structure
from studyhall.core.library.extraction.structural_extractor import StructuralExtractor
from studyhall.core.library.graph.outline import (
    current_sections,
    meaning_text,
    node_outline,
    node_sections_now,
)
from studyhall.core.library.graph.snapshot import graph_snapshot
from studyhall.core.library.graph.view import SnapshotNode
from studyhall.core.library.sources.notes import parse_note
from studyhall.core.library.sources.notes.views import note_views

AT = datetime(2026, 1, 1, tzinfo=UTC)
BEFORE = """# Cells

Cells are the units of every living thing.

## Membrane

The membrane keeps the inside apart.

## Nucleus

The nucleus holds the cell's genes.

## Ribosomes

Ribosomes build proteins from amino acids.
"""
# "Nucleus" renamed "Cell nucleus"; "Ribosomes" dropped; "Membrane" as it was.
AFTER = """# Cells

Cells are the units of every living thing.

## Membrane

The membrane keeps the inside apart.

## Cell nucleus

The nucleus holds the cell's genes.
"""


async def note_node(*versions: str) -> SnapshotNode:
    """The note's one node after importing each version of it in turn into one graph."""
    store, ids = InMemoryGraphStore(), SequentialIds()
    for n, text in enumerate(versions):
        at = AT + timedelta(days=n)
        pipeline = ExtractionPipeline(store=store, base=TrackedGraph(store, graph_snapshot(store)),
                                      clock=FixedClock(at), ids=ids)
        structural = StructuralExtractor()
        doc = parse_note("Cells.md", text)
        structural.add_note("note_c", doc)
        kind = notes_by_structure(structural)
        views = pipeline.uncovered([sv.view for sv in note_views(doc, "note_c", at)])
        for batch in pipeline.batches(views, kind, 1000):
            await pipeline.run_batch(batch, kind)
        pipeline.commit_group()
    [node] = graph_snapshot(store).nodes
    return node


def record(sections: tuple[str, ...] | None, source_id: str = "note_c") -> Source:
    return Source(id=source_id, path="Cells.md", root="/v", kind="note", status="imported",
                  sections=sections, imported_at=AT)


NOW = (record(tuple(s.anchor for s in parse_note("Cells.md", AFTER).sections)),)


def headings(node: SnapshotNode, current=None) -> list[str]:
    return [s.heading for s in node_outline(node, current) if s.level > 0]


async def test_without_current_the_outline_keeps_every_heading_its_evidence_cites():
    node = await note_node(BEFORE, AFTER)
    assert headings(node) == ["Cells", "Membrane", "Nucleus", "Ribosomes", "Cell nucleus"]


async def test_current_leaves_out_renamed_and_dropped_headings_but_not_their_evidence():
    node = await note_node(BEFORE, AFTER)
    now = current_sections(NOW)
    assert headings(node, now) == ["Cells", "Membrane", "Cell nucleus"]
    quotes = {e.quote for e in node.evidence}
    assert {"## Ribosomes", "Ribosomes build proteins from amino acids."} <= quotes


async def test_a_section_keeps_its_evidence_count_under_current():
    node = await note_node(BEFORE, AFTER)
    counted = [(s.anchor, s.evidence) for s in node_outline(node, current_sections(NOW))]
    assert counted == [("", 0), ("Cells", 1), ("Cells#Membrane", 1), ("Cells#Cell nucleus", 1)]


async def test_meaning_text_names_only_the_headings_the_note_has_now():
    node = await note_node(BEFORE, AFTER)
    assert meaning_text(node, current_sections(NOW)) == "Cells: Cells; Membrane; Cell nucleus"
    assert "Ribosomes" in meaning_text(node)  # not known: as before


async def test_a_source_current_does_not_name_keeps_all_its_sections():
    node = await note_node(BEFORE, AFTER)
    other = current_sections([record(("",), source_id="note_other")])
    assert headings(node, other) == headings(node)


def test_a_source_recorded_without_sections_is_not_known():
    assert current_sections([record(None), record(("", "A"), "note_a")]) == {
        "note_a": ("", "A")}


async def test_node_sections_now_reads_only_the_notes_its_evidence_cites():
    node = await note_node(BEFORE)
    asked: list[str] = []

    def get(source_id: str) -> Source | None:
        asked.append(source_id)
        return NOW[0] if source_id == "note_c" else None

    assert node_sections_now(node, get) == current_sections(NOW)
    assert asked == ["note_c"]


async def test_study_this_studies_only_the_sections_the_note_has_now():
    node = await note_node(BEFORE, AFTER)
    material = study_material(node, (), current_sections(NOW))  # no index: the graph's quotes
    assert [s.heading for s in material.sections] == ["Membrane", "Cell nucleus"]
    assert not any("Ribosomes" in p.text for p in material.passages)
    assert any("Ribosomes" in p.text for p in study_material(node, ()).passages)
