"""Notes import: a Markdown/Obsidian vault (or one note) into sources and the graph.

Order: scan -> read and parse every note (bad files skipped with a reason) -> resolve links over
the whole vault -> per note, in path order, extract its uncovered sections (a note is one
topic, its headings its sections; model-free notes planned into group runs) -> fold the
sentence and heading nodes older imports made into their notes' topics -> link edges between
note topics, once every note's nodes exist -> embeddings, clusters, layout (``GraphUpkeep``) -> the sources index.
Coverage is the only record of what is done, so an import killed at any point and run again
extracts exactly what the first one had not merged. An unchanged vault extracts nothing; a
changed section re-extracts only itself. The configured model (notes prompt, auditor) distils
propositions under the topics when there is one; else the structural extractor alone.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from studyhall.core.agents.auditor import PROMPT_NAME as AUDITOR_PROMPT
from studyhall.core.agents.auditor import ModelAuditor
from studyhall.core.agents.extractor import ModelExtractor
from studyhall.core.contracts.material import NoteFile, SkippedFile
from studyhall.core.errors import ModelAuthError, ModelError, ModelNotConfigured
from studyhall.core.library.export.marker import skip_exported
from studyhall.core.library.extraction.coverage import View
from studyhall.core.library.extraction.link_extractor import LinkingNote
from studyhall.core.library.extraction.merge_base import TrackedGraph
from studyhall.core.library.extraction.pipeline import ExtractionPipeline, SourceKind
from studyhall.core.library.extraction.source_kinds import (
    notes_by_model,
    notes_by_structure,
)
from studyhall.core.library.extraction.structural_extractor import StructuralExtractor
from studyhall.core.library.extraction.tally import MergeTally
from studyhall.core.library.extraction.topic_conversion import fold_sentence_nodes
from studyhall.core.library.graph.snapshot import GraphSnapshot
from studyhall.core.library.imports.phases import link_notes, section_views
from studyhall.core.library.imports.report import (
    ImportProgress,
    ImportReport,
    Mode,
    ProgressFn,
    quiet,
)
from studyhall.core.library.sources.note_links import (
    NoteRef,
    ResolvedLink,
    link_report,
    resolve_links,
)
from studyhall.core.library.sources.notes import NoteDoc, VaultIndex, parse_note
from studyhall.core.library.sources.notes.vault_index import NoteOutcome, source_records
from studyhall.core.library.sources.notes.views import (
    note_source_id,
    vault_run_source,
)
from studyhall.core.library.sources.source_ids import root_name
from studyhall.core.library.upkeep.report import UpkeepReport
from studyhall.core.ports.models import ChatModel
from studyhall.core.ports.sources import VaultReader
from studyhall.core.ports.storage import GraphStore, SettingsStore, SourceStore
from studyhall.core.ports.system import Clock, Ids, OffLoop

log = logging.getLogger("studyhall.imports")

NOTES_PROMPT = "notes_extractor.md"
GROUP_NOTES = 64  # model-free notes per group run (one checkpoint each)


class Upkeep(Protocol):
    """What an import needs of the graph's upkeep: the graph as it stands (a cold read folds:
    CPU, so it is called off the loop), and the refresh after the merges."""

    def snapshot(self) -> GraphSnapshot: ...

    async def refresh(self, progress: ProgressFn = ..., *, layout: bool = True,
                      arrange_after: Callable[[], Awaitable[object]] | None = None,
                      ) -> UpkeepReport: ...


@dataclass
class _Note:
    file: NoteFile
    doc: NoteDoc
    source_id: str
    resolved: list[ResolvedLink]
    views: list[View] = field(default_factory=list)
    status: Literal["imported", "unchanged", "skipped"] = "unchanged"
    reason: str | None = None
    done: bool = False  # reached by this import (its status means something)


class NotesImporter:
    def __init__(
        self,
        *,
        vault_reader: VaultReader,
        graph_store: GraphStore,
        source_store: SourceStore,
        settings_store: SettingsStore,
        clock: Clock,
        ids: Ids,
        upkeep: Upkeep,
        chat_model: ChatModel | None,
        prompt: Callable[[str], str],
        off_loop: OffLoop,
        no_model_reason: Callable[[], str | None],
        group_notes: int = GROUP_NOTES,
    ) -> None:
        self._reader = vault_reader
        self._graph = graph_store
        self._sources = source_store
        self._settings = settings_store
        self._clock = clock
        self._ids = ids
        self._upkeep = upkeep
        self._model = chat_model
        self._prompt = prompt
        self._off = off_loop  # file reads, parsing, a cold graph read: never on the loop
        # A cheap look before the first model call (which would import litellm only to learn
        # that no key is saved): a reason when no model can possibly answer, else None.
        self._no_model_reason = no_model_reason
        self._group_notes = max(1, group_notes)

    async def run(
        self,
        path: str,
        *,
        mode: Mode = "auto",
        embed: bool = True,
        progress: ProgressFn = quiet,
        arrange_after: Callable[[], Awaitable[object]] | None = None,
    ) -> ImportReport:
        """Import the notes under ``path`` into the graph; with ``embed``, then embed, cluster
        and lay out its nodes (``arrange_after``: see ``GraphUpkeep.refresh``)."""
        started = self._clock.now()
        tell = progress
        tell(ImportProgress("scanning", 0, 0))
        scan = await self._off(self._reader.scan, path)
        report = ImportReport(root=scan.root, target=scan.target, skipped=list(scan.skipped))
        vault = root_name(scan.root)  # the material import names it by the same rule
        notes = await self._off(self._read_all, scan, vault, report, tell)
        report.notes = len(notes)
        # In a thread: whether a key is saved may ask the OS keyring (D-Bus can stall).
        await self._off(self._choose_extractor, mode, report)
        # Off the event loop: the first read of a large graph folds it (seconds).
        snapshot = await self._off(self._upkeep.snapshot)
        pipeline = ExtractionPipeline(
            store=self._graph,
            base=TrackedGraph(self._graph, snapshot),
            clock=self._clock,
            ids=self._ids,
            group_source=vault_run_source(vault),
            off_loop=self._off,  # a huge note is planned in a worker
        )
        tally = MergeTally()
        complete = False
        try:
            await self._extract_all(notes, pipeline, tally, report, tell)
            await self._convert(notes, tally, vault)
            await self._link_all(notes, pipeline, tally, vault, tell)
            complete = True
        finally:
            # What was committed is recorded even when the import stops half-way (a model
            # failure, an abort); notes not committed yet are left for the next run.
            report.propositions, report.evidence = tally.propositions, tally.evidence
            report.edges, report.dropped = tally.edges, tally.dropped
            report.usage = tally.usage
            for note in notes:
                links, broken = link_report(note.resolved)
                report.links += len(links)
                report.broken_links += len(broken)
            await self._off(
                self._save_sources, scan.root, scan.target, vault, notes, report, complete
            )
        if embed:
            # The nodes are embedded after the merges, once, as a whole (deduplicated, sorted
            # by length); an import runs the search index's side beside this (ImportRunner).
            report.upkeep = await self._upkeep.refresh(tell, arrange_after=arrange_after)
        report.extractor = "+".join(sorted(self._used)) or "none (nothing new to extract)"
        report.seconds = (self._clock.now() - started).total_seconds()
        tell(ImportProgress("done", report.notes, report.notes))
        log.info(
            "[import] %s: %d notes (%d imported, %d unchanged, %d skipped) in %.1fs",
            scan.root,
            report.notes,
            report.imported,
            report.unchanged,
            len(report.skipped),
            report.seconds,
        )
        return report

    def _choose_extractor(self, mode: Mode, report: ImportReport) -> None:
        if mode == "model" and self._model is None:
            raise ModelNotConfigured("No model is wired for the extractor.", role="extractor")
        self._mode = mode
        self._use_model = mode != "structural" and self._model is not None
        if self._use_model and mode == "auto":
            reason = self._no_model_reason()
            if reason is not None:
                self._use_model = False
                report.extractor_note = reason
        self._structural = StructuralExtractor(off_loop=self._off)
        self._by_structure = notes_by_structure(self._structural, self._off)
        self._by_model: SourceKind | None = None  # built on the first note that uses it
        self._used: set[str] = set()

    # --- reading ----------------------------------------------------------------------------

    def _read_all(
        self, scan: Any, vault: str, report: ImportReport, tell: ProgressFn
    ) -> list[_Note]:
        files: list[NoteFile] = []
        for n, path in enumerate(scan.notes):
            tell(ImportProgress("reading", n, len(scan.notes), path))
            got = skip_exported(self._reader.read(scan, path))  # never our own export
            if isinstance(got, SkippedFile):
                report.skipped.append(got)
            else:
                files.append(got)
        docs = [parse_note(f.path, f.text, f.meta) for f in files]
        index = VaultIndex(scan.files, {d.path: d.aliases for d in docs})
        notes = []
        for f, doc in zip(files, docs):
            resolved = resolve_links(doc, index)
            notes.append(_Note(f, doc, note_source_id(vault, f.path), resolved))
            if f.meta_error:
                log.info("[import] %s: %s", f.path, f.meta_error)
        report.skipped.sort(key=lambda s: s.path)
        return notes

    # --- extraction -------------------------------------------------------------------------

    async def _extract_all(
        self,
        notes: Sequence[_Note],
        pipeline: ExtractionPipeline,
        tally: MergeTally,
        report: ImportReport,
        tell: ProgressFn,
    ) -> None:
        at = self._clock.now()
        chunk = (await self._off(self._settings.load)).chunk_tokens
        waiting: list[_Note] = []  # planned into the open group run, not committed yet

        def commit() -> None:
            for plan in pipeline.commit_group():
                tally.add(plan)
            for done in waiting:
                self._finish_note(done, report)
            waiting.clear()

        try:
            for n, note in enumerate(notes):
                tell(ImportProgress("extracting", n, len(notes), note.file.path))
                note.views = await section_views(note.doc, note.source_id, note.file.size, at,
                                                 self._off)
                pending = pipeline.uncovered(note.views)
                if not pending:
                    self._finish_note(note, report)
                    continue
                note.status = "imported"
                try:
                    if await self._extract_note(note, pending, chunk, pipeline, tally):
                        waiting.append(note)
                    else:
                        self._finish_note(note, report)
                except (ModelAuthError, ModelNotConfigured):
                    raise  # a refused or missing key fails every note: stop and say so
                except ModelError as e:
                    note.status, note.reason = "skipped", f"extraction failed: {e}"
                    report.failed.append(SkippedFile(note.file.path, note.reason))
                    self._finish_note(note, report)
                if pipeline.pending >= self._group_notes:
                    commit()
                await asyncio.sleep(0)  # let the embedder and the server breathe
            commit()
        except BaseException:
            pipeline.discard_group()  # planned but unwritten: the next import redoes it
            raise
        tell(ImportProgress("extracting", len(notes), len(notes)))

    async def _extract_note(self, note: _Note, pending: list[View], chunk: int,
                            pipeline: ExtractionPipeline, tally: MergeTally) -> bool:
        """Extract a note's uncovered views; True when it waits in the open group run."""
        if self._use_model:
            self._structural.add_note(note.source_id, note.doc)  # its topics anchor the model's
            try:
                kind = self._model_kind()
                for batch in kind.batching(pending, chunk):
                    tally.add(await pipeline.run_batch(batch, kind))
                    self._used.add("model")
                return False
            except ModelNotConfigured as e:
                if self._mode == "model":
                    raise
                # No key / real calls off: this and every later note go model-free.
                self._use_model = False
                self._note_fallback = f"The model was not used: {e}"
                log.info("[import] falling back to the structural extractor: %s", e)
            finally:
                if self._use_model:
                    self._structural.forget(note.source_id)
        self._structural.add_note(note.source_id, note.doc)
        try:
            for batch in self._by_structure.batching(pending, chunk):
                await pipeline.run_batch(batch, self._by_structure)
        finally:
            self._structural.forget(note.source_id)
        self._used.add("structural")
        return True

    def _model_kind(self) -> SourceKind:
        if self._by_model is None:
            assert self._model is not None  # _use_model is never True without one
            self._by_model = notes_by_model(
                ModelExtractor(self._model, self._prompt(NOTES_PROMPT), short=False),
                ModelAuditor(self._model, self._prompt(AUDITOR_PROMPT)),
                topics=self._structural,
            )
        return self._by_model

    def _finish_note(self, note: _Note, report: ImportReport) -> None:
        note.done = True
        if note.status == "imported":
            report.imported += 1
        elif note.status == "unchanged":
            report.unchanged += 1
        fallback = getattr(self, "_note_fallback", None)
        if fallback and report.extractor_note is None:
            report.extractor_note = fallback

    # --- converting an older graph -----------------------------------------------------------

    async def _convert(self, notes: Sequence[_Note], tally: MergeTally, vault: str) -> None:
        """Fold the sentence and heading nodes older imports made into their notes' topics."""
        snapshot = await self._off(self._upkeep.snapshot)
        refs = [NoteRef(n.source_id, n.doc) for n in notes if n.status != "skipped"]
        plan = await self._off(
            fold_sentence_nodes, snapshot.nodes, refs, self._graph, run_id=self._ids.new("run"),
            source_id=vault_run_source(vault), at=self._clock.now())
        if plan is not None:
            tally.add(plan)
            log.info("[import] folded %d sentence and heading nodes into topics",
                     len(plan.identities))

    # --- links between notes ----------------------------------------------------------------

    async def _link_all(self, notes: Sequence[_Note], pipeline: ExtractionPipeline,
                        tally: MergeTally, vault: str, tell: ProgressFn) -> None:
        """Link edges, once every note's own nodes are in (``import_phases.link_notes``)."""
        tell(ImportProgress("linking", 0, len(notes)))
        linking = [LinkingNote(NoteRef(note.source_id, note.doc), note.resolved, note.views)
                   for note in notes if note.status != "skipped"]
        await link_notes(linking, self._upkeep.snapshot, pipeline, tally, vault,
                         self._clock.now(), tell, self._off)

    # --- the sources index ------------------------------------------------------------------

    def _save_sources(
        self,
        root: str,
        target: str,
        vault: str,
        notes: Sequence[_Note],
        report: ImportReport,
        complete: bool,
    ) -> None:
        # A note's sections as its evidence now cites them; not told for one whose extraction
        # failed (its evidence is of the older text: the sections recorded with it stand).
        outcomes = [
            NoteOutcome(note.source_id, note.file.path, note.status, note.reason,
                        note.file.content_hash, note.file.size, *link_report(note.resolved),
                        sections=None if note.status == "skipped"
                        else tuple(section.anchor for section in note.doc.sections))
            for note in notes if note.done
        ]
        outcomes += [
            NoteOutcome(note_source_id(vault, s.path), s.path, "skipped", s.reason)
            for s in report.skipped
        ]
        fresh, report.deleted = source_records(
            root,
            target,
            outcomes,
            {note.source_id for note in notes},
            self._sources.list(),
            self._clock.now(),
            complete=complete,
        )
        self._sources.save_many(fresh)  # one write of the index, all or nothing
