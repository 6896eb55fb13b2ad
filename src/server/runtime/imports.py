"""Notes import: a Markdown/Obsidian vault (or one note) into sources and the graph.

Order, and why:
  scan the vault -> read and parse every note (bad files skipped with a reason)
  -> resolve links over the whole vault (Obsidian's rules) -> per note, in path order, extract
  the sections whose view is not covered yet and merge them (one merge per batch, checkpoint
  last) -> link edges between notes, once every note's nodes exist -> embeddings, clusters,
  layout (``GraphUpkeep``) -> the sources index.
Coverage is the only record of what is done, so an import killed at any point and run again
extracts exactly what the first one had not merged, and ends at the same graph as one clean
run. An unchanged vault extracts nothing; a changed section re-extracts only itself.
Extraction uses the configured model (notes prompt, auditor) when there is one and falls back
to the model-free structural extractor when there is not.
"""

from __future__ import annotations

import asyncio
import logging
import os.path
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from studyhall.core.agents.auditor import PROMPT_NAME as AUDITOR_PROMPT
from studyhall.core.agents.auditor import ModelAuditor
from studyhall.core.agents.extractor import ModelExtractor
from studyhall.core.contracts.sources import Source
from studyhall.core.errors import ModelAuthError, ModelError, ModelNotConfigured
from studyhall.core.library.batching import Batch, make_batches
from studyhall.core.library.coverage import View, covered_fingerprints, make_view
from studyhall.core.library.evidence import normalize_ws
from studyhall.core.library.findings import (
    Auditor,
    AuditorOutput,
    Extractor,
    ExtractorOutput,
    KeepAllAuditor,
    NodeRef,
    add_usage,
)
from studyhall.core.library.merger import KnownGraph, MergePlan, commit_merge, plan_merge
from studyhall.core.library.nearest import LexicalNeighbours
from studyhall.core.library.note_links import (
    EvidenceIndex,
    NoteRef,
    ResolvedLink,
    link_edges,
    link_report,
    resolve_links,
)
from studyhall.core.library.notes import NoteDoc, VaultIndex, parse_note
from studyhall.core.library.notes.views import links_message_id, note_source_id, note_views
from studyhall.core.library.structural_extractor import StructuralExtractor
from studyhall.core.ports import (
    ChatModel,
    Clock,
    GraphStore,
    Ids,
    NoteFile,
    SettingsStore,
    SkippedFile,
    SourceStore,
    VaultReader,
)

from .graph_upkeep import GraphUpkeep, UpkeepReport

log = logging.getLogger("studyhall.imports")

Mode = Literal["auto", "model", "structural"]
NOTES_PROMPT = "notes_extractor.md"
NEIGHBOURS = 5


@dataclass(frozen=True)
class ImportProgress:
    stage: str  # scanning | reading | extracting | linking | embedding | clustering | layout | done
    done: int
    total: int
    path: str | None = None


ProgressFn = Callable[[ImportProgress], None]


@dataclass
class ImportReport:
    root: str = ""
    target: str = ""
    extractor: str = "none"
    extractor_note: str | None = None  # why the model was not used
    notes: int = 0
    imported: int = 0
    unchanged: int = 0
    skipped: list[SkippedFile] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    failed: list[SkippedFile] = field(default_factory=list)  # extraction failed; retried next time
    links: int = 0
    broken_links: int = 0
    propositions: int = 0  # new nodes
    evidence: int = 0  # evidence added to existing nodes
    edges: int = 0
    dropped: int = 0
    upkeep: UpkeepReport | None = None
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "root": self.root, "target": self.target, "extractor": self.extractor,
            "extractor_note": self.extractor_note, "notes": self.notes,
            "imported": self.imported, "unchanged": self.unchanged,
            "skipped": [{"path": s.path, "reason": s.reason} for s in self.skipped],
            "failed": [{"path": s.path, "reason": s.reason} for s in self.failed],
            "deleted": list(self.deleted), "links": self.links,
            "broken_links": self.broken_links, "propositions": self.propositions,
            "evidence": self.evidence, "edges": self.edges, "dropped": self.dropped,
            "upkeep": self.upkeep.to_dict() if self.upkeep else None,
            "seconds": round(self.seconds, 3),
        }


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
    def __init__(self, *, vault_reader: VaultReader, graph_store: GraphStore,
                 source_store: SourceStore, settings_store: SettingsStore, clock: Clock,
                 ids: Ids, upkeep: GraphUpkeep, chat_model: ChatModel | None,
                 prompt: Callable[[str], str],
                 no_model_reason: Callable[[], str | None] = lambda: None) -> None:
        self._reader = vault_reader
        self._graph = graph_store
        self._sources = source_store
        self._settings = settings_store
        self._clock = clock
        self._ids = ids
        self._upkeep = upkeep
        self._model = chat_model
        self._prompt = prompt
        # A cheap look before the first model call (which would import litellm only to learn
        # that no key is saved): a reason when no model can possibly answer, else None.
        self._no_model_reason = no_model_reason

    async def run(self, path: str, *, mode: Mode = "auto", embed: bool = True,
                  progress: ProgressFn | None = None) -> ImportReport:
        started = time.perf_counter()
        tell = progress or (lambda _p: None)
        tell(ImportProgress("scanning", 0, 0))
        scan = await asyncio.to_thread(self._reader.scan, path)
        report = ImportReport(root=scan.root, target=scan.target, skipped=list(scan.skipped))
        vault = os.path.basename(scan.root.rstrip("/\\")) or "vault"
        notes = await asyncio.to_thread(self._read_all, scan, vault, report, tell)
        report.notes = len(notes)
        self._mode = mode
        self._structural = StructuralExtractor()
        self._use_model = mode != "structural" and self._model is not None
        if mode == "model" and self._model is None:
            raise ModelNotConfigured("No model is wired for the extractor.", role="extractor")
        if self._use_model and mode == "auto":
            reason = self._no_model_reason()
            if reason is not None:
                self._use_model = False
                report.extractor_note = reason
        self._used: set[str] = set()
        self._known = self._graph_known()
        self._runs = {c.id for c in self._graph.checkpoints().records}
        self._texts: list[str] = []
        embedder = _EmbedQueue(self._upkeep) if embed else None
        cache = self._upkeep.cache() if embed else None
        counts = (cache.hits, cache.misses) if cache else (0, 0)
        complete = False
        try:
            await self._extract_all(notes, report, tell, embedder)
            await self._link_all(notes, report, tell)
            complete = True
        except BaseException:
            if embedder is not None:
                embedder.cancel()
            raise
        finally:
            # What was done is recorded even when the import stops half-way (a model failure,
            # an abort); notes not reached yet are left for the next run to report.
            await asyncio.to_thread(self._save_sources, scan.root, scan.target, vault, notes,
                                    report, complete)
        if embedder is not None:
            await embedder.close()
        if embed:
            report.upkeep = await self._upkeep.refresh(
                lambda stage, done, total: tell(ImportProgress(stage, done, total)))
            if cache is not None:  # the whole import's cache use, background part included
                report.upkeep.cache_hits = cache.hits - counts[0]
                report.upkeep.cache_misses = cache.misses - counts[1]
                report.upkeep.embedded = report.upkeep.cache_misses
        report.extractor = "+".join(sorted(self._used)) or "none (nothing new to extract)"
        report.seconds = time.perf_counter() - started
        tell(ImportProgress("done", report.notes, report.notes))
        log.info("[import] %s: %d notes (%d imported, %d unchanged, %d skipped) in %.1fs",
                 scan.root, report.notes, report.imported, report.unchanged,
                 len(report.skipped), report.seconds)
        return report

    # --- reading ----------------------------------------------------------------------------

    def _read_all(self, scan: Any, vault: str, report: ImportReport,
                  tell: ProgressFn) -> list[_Note]:
        files: list[NoteFile] = []
        for n, path in enumerate(scan.notes):
            tell(ImportProgress("reading", n, len(scan.notes), path))
            got = self._reader.read(scan, path)
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

    def _graph_known(self) -> KnownGraph:
        snap = self._upkeep.reader.snapshot()
        self._node_ids = set(snap.known().node_ids)
        self._edges = set(snap.known().edges)
        self._node_texts = {n.id: n.text for n in snap.nodes}
        return snap.known()

    async def _extract_all(self, notes: Sequence[_Note], report: ImportReport, tell: ProgressFn,
                           embedder: _EmbedQueue | None) -> None:
        at = self._clock.now()
        chunk = self._settings.load().chunk_tokens
        for n, note in enumerate(notes):
            tell(ImportProgress("extracting", n, len(notes), note.file.path))
            note.views = [sv.view for sv in note_views(note.doc, note.source_id, at)]
            covered = covered_fingerprints(self._graph.coverage(note.source_id).records,
                                           self._runs)
            pending = [v for v in note.views if v.fingerprint not in covered]
            if pending:
                try:
                    await self._extract_note(note, pending, chunk, report)
                    note.status = "imported"
                except (ModelAuthError, ModelNotConfigured):
                    raise  # a refused or missing key fails every note: stop and say so
                except ModelError as e:
                    note.status, note.reason = "skipped", f"extraction failed: {e}"
                    report.failed.append(SkippedFile(note.file.path, note.reason))
            note.done = True
            if note.status == "imported":
                report.imported += 1
            elif note.status == "unchanged":
                report.unchanged += 1
            self._structural.forget(note.source_id)
            if embedder is not None and self._texts:
                embedder.put(self._texts)
                self._texts = []
            await asyncio.sleep(0)  # let the embedder and the server breathe between notes
        tell(ImportProgress("extracting", len(notes), len(notes)))

    async def _extract_note(self, note: _Note, pending: list[View], chunk: int,
                            report: ImportReport) -> None:
        if self._use_model:
            try:
                for batch in make_batches(pending, chunk):
                    await self._merge_batch(batch, self._model_stages(), report)
                return
            except ModelNotConfigured as e:
                if self._mode == "model":
                    raise
                # No key / real calls off: this and every later note go model-free.
                self._use_model = False
                report.extractor_note = f"The model was not used: {e}"
                log.info("[import] falling back to the structural extractor: %s", e)
        self._structural.add_note(note.source_id, note.doc)
        await self._merge_batch(Batch(note.source_id, tuple(pending)),
                                (self._structural, KeepAllAuditor()), report)

    def _model_stages(self) -> tuple[Extractor, Auditor]:
        assert self._model is not None
        return (ModelExtractor(self._model, self._prompt(NOTES_PROMPT)),
                ModelAuditor(self._model, self._prompt(AUDITOR_PROMPT)))

    async def _merge_batch(self, batch: Batch, stages: tuple[Extractor, Auditor],
                           report: ImportReport) -> MergePlan:
        extractor, auditor = stages
        started = self._clock.now()
        extraction = await extractor.extract(batch)
        findings = extraction.output
        usage = extraction.usage
        if isinstance(extractor, StructuralExtractor):
            # A re-extracted section re-states its place in the note (section -> parent):
            # edges the graph already has are not findings, so they are not "dropped" either.
            fresh = tuple(e for e in findings.edges
                          if (e.source, e.target, e.kind) not in self._edges)
            findings = findings.model_copy(update={"edges": fresh})
        if isinstance(auditor, KeepAllAuditor) or not findings.propositions:
            audit = (await KeepAllAuditor().audit(batch, findings, {})).output
        else:
            finder = LexicalNeighbours([NodeRef(i, t) for i, t in self._node_texts.items()])
            found = await finder.nearest([p.text for p in findings.propositions], NEIGHBOURS)
            judged = await auditor.audit(batch, findings,
                                         {p.key: r for p, r in zip(findings.propositions, found)})
            audit, usage = judged.output, add_usage(usage, judged.usage)
        self._used.add("structural" if isinstance(extractor, StructuralExtractor) else "model")
        return self._commit(batch, findings, audit, started, usage, report)

    def _commit(self, batch: Batch, findings: ExtractorOutput, audit: AuditorOutput,
                started: Any, usage: Any, report: ImportReport) -> MergePlan:
        # No await from here to the checkpoint: the merge is atomic for this event loop.
        run_id = self._ids.new("run")
        known = KnownGraph(frozenset(self._node_ids), frozenset(self._edges))
        plan = plan_merge(batch, findings, audit, known, run_id=run_id, started_at=started,
                          at=self._clock.now(), usage=usage)
        commit_merge(plan, self._graph)
        self._runs.add(run_id)
        for record in plan.propositions:
            self._node_ids.add(record.node_id)
            self._node_texts[record.node_id] = record.text
            self._texts.append(record.text)
        self._edges.update((e.source, e.target, e.relation) for e in plan.edges)
        report.propositions += len(plan.propositions)
        report.evidence += len(plan.identities)
        report.edges += len(plan.edges)
        report.dropped += len(plan.drops)
        for drop in plan.drops:
            log.info("[import %s] dropped %s", batch.source_id, drop)
        return plan

    # --- links between notes ----------------------------------------------------------------

    async def _link_all(self, notes: Sequence[_Note], report: ImportReport,
                        tell: ProgressFn) -> None:
        tell(ImportProgress("linking", 0, len(notes)))
        snapshot = self._upkeep.reader.snapshot()
        current = {v.message_id: normalize_ws("\n".join(v.lines)) for note in notes
                   for v in note.views}
        evidence = EvidenceIndex(
            ((node.id, e.message_id, e.quote) for node in snapshot.nodes for e in node.evidence
             if e.message_id in current), current)
        by_path = {note.file.path: NoteRef(note.source_id, note.doc) for note in notes
                   if note.status != "skipped"}
        at = self._clock.now()
        for n, note in enumerate(notes):
            links, broken = link_report(note.resolved)
            report.links += len(links)
            report.broken_links += len(broken)
            if note.status == "skipped":
                continue
            edges = link_edges(by_path[note.file.path], note.resolved, by_path, evidence)
            if not edges:
                continue
            view = make_view(note.source_id, links_message_id(note.source_id), "note-links",
                             [e.line for e in edges], at)
            covered = covered_fingerprints(self._graph.coverage(note.source_id).records,
                                           self._runs)
            if view.fingerprint in covered:
                continue
            findings = ExtractorOutput.model_validate({"propositions": [], "edges": [
                {"from": e.source, "to": e.target, "kind": "supports"} for e in edges
                if (e.source, e.target, "supports") not in self._edges]})
            self._commit(Batch(note.source_id, (view,)), findings, AuditorOutput(verdicts=()), at, None,
                         report)
            tell(ImportProgress("linking", n + 1, len(notes), note.file.path))
            await asyncio.sleep(0)

    # --- the sources index ------------------------------------------------------------------

    def _save_sources(self, root: str, target: str, vault: str, notes: Sequence[_Note],
                      report: ImportReport, complete: bool) -> None:
        now = self._clock.now()
        fresh: list[Source] = []
        seen: set[str] = {note.source_id for note in notes}
        for note in notes:
            if not note.done:
                continue
            links, broken = link_report(note.resolved)
            fresh.append(Source(
                id=note.source_id, path=note.file.path, root=root, kind="note",
                status=note.status, reason=note.reason, content_hash=note.file.content_hash,
                size=note.file.size, links=links, broken_links=broken, imported_at=now))
        for skip in report.skipped:
            sid = note_source_id(vault, skip.path)
            seen.add(sid)
            fresh.append(Source(id=sid, path=skip.path, root=root, kind="note",
                                status="skipped", reason=skip.reason, imported_at=now))
        for old in self._sources.list() if complete else ():
            if (old.root == root and old.kind == "note" and old.id not in seen
                    and _under(old.path, target) and old.status != "deleted"):
                report.deleted.append(old.path)
                fresh.append(old.model_copy(update={
                    "status": "deleted", "reason": "the file is gone from the vault",
                    "imported_at": now}))
        report.deleted.sort()
        self._sources.save_many(fresh)  # one write of the index, all or nothing


def _under(path: str, target: str) -> bool:
    return not target or path == target or path.startswith(target.rstrip("/") + "/")


class _EmbedQueue:
    """Embeds new node texts in the background while the import goes on merging notes."""

    def __init__(self, upkeep: GraphUpkeep) -> None:
        self._cache = upkeep.cache()
        self._queue: asyncio.Queue[list[str] | None] = asyncio.Queue()
        self._task = asyncio.get_running_loop().create_task(self._work()) if self._cache else None
        self.error: str | None = None

    def put(self, texts: list[str]) -> None:
        if self._task is not None and self.error is None:
            self._queue.put_nowait(texts)

    async def _work(self) -> None:
        assert self._cache is not None
        while (texts := await self._queue.get()) is not None:
            batch = list(texts)
            while not self._queue.empty() and len(batch) < 256:  # coalesce small puts
                more = self._queue.get_nowait()
                if more is None:
                    self._queue.put_nowait(None)
                    break
                batch.extend(more)
            try:
                await self._cache.ensure(batch)
            except Exception as e:  # embeddings are derived: the upkeep step retries them
                self.error = str(e)
                log.warning("[import] background embedding stopped: %s", e)
                return

    async def close(self) -> None:
        """Wait for the queued texts to be embedded."""
        if self._task is not None:
            self._queue.put_nowait(None)
            await self._task

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
