"""``AnkiImporter``: ``studyhall import deck.apkg`` — a learner's Anki deck into the graph, its
review history into the learner model, its cards into the review queue.

Order: read and check the whole package (nothing is written when it is broken) → each deck
through the extraction pipeline (``core/library/extraction/anki_extractor.py``: a topic per deck
level, a proposition per note), all planned into ONE group run whose checkpoint is written last
→ the review history as review grades on the notes' nodes (FSRS replays them: the cards' state
is the deck's) → each note's card kept as a flashcard of its deck, so the review shows the
learner's own card → embeddings, clusters, layout. Every id is derived (view ids from note
GUIDs, grade ids from revlog ids, card ids from their content), so importing the same deck
again writes nothing, and an import stopped half-way is finished by the next one.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import TYPE_CHECKING

from studyhall.core.contracts.anki_deck import DECK_ARTIFACT, AnkiDeckFile
from studyhall.core.contracts.learner import ReviewGraded
from studyhall.core.contracts.material import SkippedFile
from studyhall.core.library.extraction.anki_extractor import (
    AnkiExtractor,
    DeckViews,
    anki_decks,
    note_node,
    package_source_id,
)
from studyhall.core.library.extraction.anki_extractor import deck_views as views_of
from studyhall.core.library.extraction.merge_base import TrackedGraph
from studyhall.core.library.extraction.pipeline import ExtractionPipeline
from studyhall.core.library.extraction.tally import MergeTally
from studyhall.core.library.graph.view import GraphSnapshot
from studyhall.core.library.imports.report import ImportProgress, ImportReport, ProgressFn, quiet
from studyhall.core.ports.sources import AnkiDeckReader
from studyhall.core.ports.storage import GraphStore
from studyhall.core.ports.system import Clock, Ids
from studyhall.server.runtime.library.graph_upkeep import GraphUpkeep

if TYPE_CHECKING:
    # A type only: the façades' packages reach into each other's modules (the graph reader,
    # the ledgers), so one façade's class is never imported at run time by another's part.
    from studyhall.server.runtime.learner import Learner

log = logging.getLogger("studyhall.imports")

ANKI_SUFFIX = ".apkg"
EXTRACTOR = "anki deck (model-free)"


def is_anki_package(path: str) -> bool:
    return path.lower().endswith(ANKI_SUFFIX) and not os.path.isdir(path)


def deck_artifact(deck: str) -> str:
    """The artifact an Anki deck's kept cards belong to."""
    return f"{DECK_ARTIFACT}{deck}"


class AnkiImporter:
    def __init__(self, *, reader: AnkiDeckReader, graph_store: GraphStore, clock: Clock,
                 ids: Ids, upkeep: GraphUpkeep, learner: Learner) -> None:
        self._reader = reader
        self._graph = graph_store
        self._clock = clock
        self._ids = ids
        self._upkeep = upkeep
        self._learner = learner

    async def run(self, path: str, *, embed: bool = True,
                  progress: ProgressFn = quiet) -> ImportReport:
        started = time.perf_counter()
        tell = progress
        tell(ImportProgress("reading", 0, 1, path))
        package = await asyncio.to_thread(self._reader.read, path)
        report = ImportReport(root=package.path, extractor=EXTRACTOR, notes=len(package.notes))
        report.skipped = [SkippedFile(f"note {guid}", why) for guid, why in package.skipped]
        report.cut = [SkippedFile(f"note {guid}", why) for guid, why in package.cut]
        decks = views_of(package, self._clock.now())
        await self._merge(package, decks, report, tell)
        snapshot = await asyncio.to_thread(self._upkeep.snapshot)
        report.anki = await asyncio.to_thread(self._learner_side, package, decks, snapshot)
        if embed:
            report.upkeep = await self._upkeep.refresh(tell)
        report.seconds = time.perf_counter() - started
        tell(ImportProgress("done", report.notes, report.notes))
        log.info("[import] %s: %d Anki notes (%d new, %d unchanged), %s", package.path,
                 report.notes, report.imported, report.unchanged, report.anki)
        return report

    async def _merge(self, package: AnkiDeckFile, decks: list[DeckViews], report: ImportReport,
                     tell: ProgressFn) -> None:
        snapshot = await asyncio.to_thread(self._upkeep.snapshot)
        pipeline = ExtractionPipeline(
            store=self._graph, base=TrackedGraph(self._graph, snapshot), clock=self._clock,
            ids=self._ids, group_source=package_source_id(os.path.basename(package.path)),
            off_loop=asyncio.to_thread)  # a heavy batch is planned in a worker
        extractor = AnkiExtractor()
        kind = anki_decks(extractor)
        tally = MergeTally()
        try:
            for n, deck in enumerate(decks):
                tell(ImportProgress("extracting", n, len(decks), deck.deck))
                extractor.add_deck(deck)
                pending = pipeline.uncovered(deck.views)
                fresh = sum(1 for v in pending if v.message_id in deck.notes)
                report.imported += fresh
                report.unchanged += len(deck.notes) - fresh
                for batch in kind.batching(pending, 0):
                    await pipeline.run_batch(batch, kind)
                    await asyncio.sleep(0)  # let the server breathe between batches
            # The whole package is one run, its checkpoint last: all of it counts, or none.
            for plan in pipeline.commit_group():
                tally.add(plan)
        except BaseException:
            pipeline.discard_group()
            raise
        tell(ImportProgress("extracting", len(decks), len(decks)))
        report.propositions, report.evidence = tally.propositions, tally.evidence
        report.edges, report.dropped = tally.edges, tally.dropped

    def _learner_side(self, package: AnkiDeckFile, decks: list[DeckViews],
                      snapshot: GraphSnapshot) -> dict[str, int]:
        """The review history as grades, and every note's card kept in its deck's queue."""
        grades: list[ReviewGraded] = []
        suspended: list[str] = []
        placed = 0
        for note in package.notes:
            node_id = note_node(note)
            if snapshot.node(node_id) is None:
                continue  # its proposition was dropped (see the report's dropped count)
            placed += 1
            grades += [ReviewGraded(id=f"rev_anki_{r.id}", node_id=node_id, grade=r.grade,
                                    prompt_kind="flashcard", at=r.at) for r in note.reviews]
            if note.suspended:
                suspended.append(node_id)
        added, cards = self._learner.record_deck(grades, {deck_artifact(deck.deck): [
            {"node_id": note_node(note), "front": note.front, "back": note.back}
            for note in deck.notes.values()] for deck in decks}, suspended)
        self._learner.adopt_deck_options(package.options, package.day_starts_hour)
        return {"decks": len(decks), "notes_in_graph": placed, "reviews": added,
                "reviews_in_deck": sum(len(n.reviews) for n in package.notes),
                "reviews_left_out": package.reviews_left_out,
                "reviews_cram_left_out": package.cram_left_out, "cards_queued": cards,
                "cards_suspended": len(suspended)}
