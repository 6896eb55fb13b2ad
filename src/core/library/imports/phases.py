"""Two phases of a notes import that hold a whole note (or the whole vault) at once, so their
CPU work runs in a worker where it is big: a note's section views, and the links between notes
(each note's links made edges, once every note's own nodes are merged)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from datetime import datetime

from studyhall.core.library.extraction.coverage import View
from studyhall.core.library.extraction.link_extractor import LinkingNote, note_link_views
from studyhall.core.library.extraction.pipeline import ExtractionPipeline
from studyhall.core.library.extraction.source_kinds import note_links
from studyhall.core.library.extraction.tally import MergeTally
from studyhall.core.library.graph.snapshot import GraphSnapshot
from studyhall.core.library.imports.report import ImportProgress, ProgressFn
from studyhall.core.library.sources.notes import NoteDoc
from studyhall.core.library.sources.notes.views import links_source_id, note_views
from studyhall.core.ports.system import OffLoop

LINK_VIEWS = 500  # link views per run of the links phase
BIG_NOTE_BYTES = 16_000  # a note this big has its views made in a worker (~HEAVY_TOKENS)


async def section_views(doc: NoteDoc, source_id: str, size: int, at: datetime,
                        off_loop: OffLoop) -> list[View]:
    """A note's section views: a big note's made in a worker (hashing every section of a
    600 KB note is a long hold of the loop), an ordinary one's in place (the hop costs more)."""
    def views() -> list[View]:
        return [sv.view for sv in note_views(doc, source_id, at)]

    return await off_loop(views) if size >= BIG_NOTE_BYTES else views()


async def link_notes(
    linking: Sequence[LinkingNote],
    snapshot: Callable[[], GraphSnapshot],
    pipeline: ExtractionPipeline,
    tally: MergeTally,
    vault: str,
    at: datetime,
    tell: ProgressFn,
    off_loop: OffLoop,
) -> None:
    """Link edges: one view per note under the vault's links source, merged in big batches
    (a note's view changes when its links do)."""
    nodes = (await off_loop(snapshot)).nodes
    # In a worker: it indexes every node's evidence and looks up every link's target.
    views, extractor = await off_loop(
        note_link_views, linking, nodes, links_source_id(vault), at)
    kind = note_links(extractor, LINK_VIEWS)
    batches = pipeline.batches(views, kind, LINK_VIEWS)
    total, done = sum(len(b.views) for b in batches), 0
    for batch in batches:
        tally.add(await pipeline.run_batch(batch, kind))
        done += len(batch.views)
        tell(ImportProgress("linking", done, total))
        await asyncio.sleep(0)
