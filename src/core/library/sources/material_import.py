"""Importing course material (transcripts, PDFs, plain text, Markdown) through the import front
door: scan, read each file with its reader, chunk, index, and record a ``Source`` per file.

Same rules as notes: deterministic ids from the root folder's name and the relative path;
re-importing unchanged files changes nothing; a broken file is skipped with its reason and the
import goes on — whatever its reader or the transcriber raises, one file's failure is that
file's alone (``_failed``); a file gone since the last import is reported and taken out of the index.
Markdown notes are indexed for retrieval here, but their ``Source`` record belongs to the notes
importer (``record_notes=False``), so the two never fight over it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from studyhall.core.contracts.material import (
    NEEDS_TRANSCRIPTION,
    MaterialFile,
    SkippedFile,
    is_media,
)
from studyhall.core.contracts.search import Chunk
from studyhall.core.contracts.sources import Source
from studyhall.core.errors import StudyhallError
from studyhall.core.library.imports.report import ImportProgress, ProgressFn, quiet
from studyhall.core.library.retrieval.chunking import chunk_material
from studyhall.core.library.retrieval.indexing import (
    EmbeddedSources,
    SourceChunks,
    embed_sources,
    indexed_key,
    write_sources,
)
from studyhall.core.library.sources.notes.vault_index import under
from studyhall.core.library.sources.source_ids import path_source_id
from studyhall.core.library.sources.source_ids import root_name as name_of_root
from studyhall.core.library.upkeep.vector_cache import VectorCache
from studyhall.core.ports.models import Embedder, Transcriber
from studyhall.core.ports.search import SearchIndex
from studyhall.core.ports.sources import MaterialReader
from studyhall.core.ports.storage import SourceStore
from studyhall.core.ports.system import Clock, OffLoop, in_place

TRANSCRIBER_ACTION = "Add a key for the transcriber in Settings"
# With the chosen provider transcription is off: a key would not help, captions or a transcriber do.
CAPTIONS_ACTION = ("Put its captions (.vtt or .srt, same name) beside the recording, or choose "
                   "a transcriber in Settings → Advanced")
# Changed files' chunks embedded together: enough for the encoder's length-sorted batches,
# few enough that a long import shows progress and holds little in memory.
WINDOW_CHUNKS = 1024
# The first window is small, so the encoder starts within the first files, not after a thousand
# passages are read (measured on a 173-note vault: the first vector at 0.15 s instead of 1.1 s).
FIRST_WINDOW_CHUNKS = 128


def material_source_id(kind: str, root_name: str, path: str) -> str:
    """Deterministic id: the notes importer's rule, so a Markdown note has one id in both."""
    return path_source_id(kind, root_name, path)


def _kind_of(path: str) -> str:
    lower = path.lower()
    if lower.endswith((".vtt", ".srt")) or is_media(lower):
        return "transcript"
    if lower.endswith(".pdf"):
        return "pdf"
    if lower.endswith((".md", ".markdown")):
        return "note"
    return "text"


def _failed(path: str, what: str, error: Exception) -> SkippedFile:
    """A file skipped for an error its reader or transcriber raised: our own errors carry a
    message written for the learner; any other is named by its class (and its first words)."""
    if isinstance(error, StudyhallError):
        return SkippedFile(path, f"{what}: {error}")
    detail = " ".join(str(error).split())[:200]
    return SkippedFile(path, f"{what} ({type(error).__name__}{': ' + detail if detail else ''})")


@dataclass
class MaterialReport:
    imported: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    needs_transcription: list[str] = field(default_factory=list)
    chunks: int = 0
    root_name: str = ""  # the imported root's name: source ids are made from it

    def indexed(self) -> list[tuple[str, str]]:
        """(kind, path) of every file the index holds for this import, changed or not."""
        return [(_kind_of(p), p) for p in [*self.imported, *self.unchanged]]

    def kinds(self) -> dict[str, int]:
        """The files (re)indexed, counted by kind (transcript, pdf, text, note)."""
        counts: dict[str, int] = {}
        for path in self.imported:
            kind = _kind_of(path)
            counts[kind] = counts.get(kind, 0) + 1
        return counts


# Files read and chunked per trip off the event loop.
READ_AHEAD = 16
# A file read (or why not), its chunks, and what the index holds it as (None: not indexed).
_Prepared = tuple[MaterialFile | SkippedFile, list[Chunk] | None, str | None]


@dataclass
class _Window:
    """Changed files indexed together, their chunks' embedding under way."""

    files: list[tuple[str, MaterialFile, SourceChunks]]
    embedding: asyncio.Future[EmbeddedSources]


@dataclass
class MaterialImporter:
    reader: MaterialReader
    index: SearchIndex
    clock: Clock
    sources: SourceStore | None = None
    embedder: Embedder | None = None
    cache: VectorCache | None = None
    record_notes: bool = False
    # Every scan, read and index or record write goes through it: the app passes
    # ``asyncio.to_thread``, so a slow disk (or a file that never ends) cannot stall the loop.
    off_loop: OffLoop = in_place
    # Audio/video with no captions and no cached transcript is transcribed by it; when
    # ``no_transcriber`` says why no model can (no key), the file waits as needs_transcription.
    transcriber: Transcriber | None = None
    no_transcriber: Callable[[], str | None] = lambda: None
    # What the learner can do about it: a key (the default), or captions when transcription
    # is off for the chosen provider.
    transcriber_action: Callable[[], str] = lambda: TRANSCRIBER_ACTION

    async def run(self, path: str, progress: ProgressFn = quiet) -> MaterialReport:
        off = self.off_loop
        scan = await off(self.reader.scan, path)
        root_name = name_of_root(scan.root)
        report = MaterialReport(skipped=list(scan.skipped), root_name=root_name)
        if self.cache is not None:
            await self.cache.load()  # the model's vectors from disk, before the first file
        seen: set[str] = set()
        waiting: list[tuple[str, MaterialFile, SourceChunks]] = []  # changed, to index together
        ahead: _Window | None = None  # embedding while the files after it are read
        window_chunks = min(FIRST_WINDOW_CHUNKS, WINDOW_CHUNKS)
        try:
            for n, rel in enumerate(scan.files, start=1):
                if (n - 1) % READ_AHEAD == 0:  # the next few files, read and chunked off the loop
                    batch = scan.files[n - 1 : n - 1 + READ_AHEAD]
                    prepared = iter(await off(self._prepare, scan.root, root_name, batch))
                kind = _kind_of(rel)
                source_id = material_source_id(kind, root_name, rel)
                seen.add(source_id)
                read: MaterialFile | SkippedFile | None
                read, chunks, indexed_as = next(prepared)
                if isinstance(read, SkippedFile) and read.reason == NEEDS_TRANSCRIPTION:
                    read = await self._transcribed(source_id, scan.root, rel, report)
                    chunks = None
                if isinstance(read, SkippedFile):
                    report.skipped.append(read)
                    await off(self._skip, source_id, rel, scan.root, kind, read.reason)
                elif read is not None:  # None: waits for a transcriber key (recorded so)
                    await self._one(source_id, scan.root, read, report, waiting, chunks,
                                    indexed_as)
                if sum(len(w[2].chunks) for w in waiting) >= window_chunks:
                    ahead = await self._hand_over(waiting, ahead, report)
                    window_chunks = WINDOW_CHUNKS
                progress(ImportProgress("indexing", n, len(scan.files), rel))
            ahead = await self._hand_over(waiting, ahead, report)
            if ahead is not None:
                await self._write(ahead, report)
                ahead = None
        finally:
            if ahead is not None:  # stopped or failed: an embedding still running is dropped
                ahead.embedding.cancel()
                with contextlib.suppress(BaseException):
                    await ahead.embedding
        if self.cache is not None:
            await self.cache.persist()
        if not scan.single_file:
            await off(self._forget_missing, scan.root, scan.target, seen, report)
        return report

    async def _transcribed(self, source_id: str, root: str, path: str,
                           report: MaterialReport) -> MaterialFile | SkippedFile | None:
        """The media file's transcript, made now; None when no transcriber can run (recorded
        with the action that fixes it, and its stale passages left out of the index)."""
        why = self.no_transcriber() if self.transcriber is not None else "No transcriber is set up."
        if why is None and self.transcriber is not None:
            try:
                return await self.transcriber.transcribe(root, path)
            except Exception as e:  # noqa: BLE001 — an undecodable video, any failure: this file only
                return _failed(path, "it could not be transcribed", e)
        report.needs_transcription.append(path)
        await self.off_loop(self.index.remove, source_id)
        await self.off_loop(self._record, source_id, path, root, "transcript", "needs_transcription",
                            reason=why, action=self.transcriber_action())
        return None

    def _skip(self, source_id: str, path: str, root: str, kind: str, reason: str) -> None:
        self.index.remove(source_id)
        self._record(source_id, path, root, kind, "skipped", reason=reason)

    def _prepare(self, root: str, root_name: str, paths: Sequence[str]) -> list[_Prepared]:
        """Read and chunk a few files, and look up what each is indexed as: one trip off the
        loop for them all (per file, the trips waited on a loop busy merging notes)."""
        out: list[_Prepared] = []
        for rel in paths:
            source_id = material_source_id(_kind_of(rel), root_name, rel)
            try:
                read = self.reader.read(root, rel)
                chunks = chunk_material(source_id, read) if isinstance(read, MaterialFile) else None
            except Exception as e:  # noqa: BLE001 — a reader's bug on a strange file: this file only
                read, chunks = _failed(rel, "it could not be read", e), None
            if chunks is not None:
                out.append((read, chunks, self.index.source_hash(source_id)))
            else:
                out.append((read, None, None))
        return out

    async def _one(self, source_id: str, root: str, file: MaterialFile, report: MaterialReport,
                   waiting: list[tuple[str, MaterialFile, SourceChunks]],
                   chunks: list[Chunk] | None = None, indexed_as: str | None = None) -> None:
        if chunks is None:  # a transcript made just now
            try:
                chunks = chunk_material(source_id, file)
            except Exception as e:  # noqa: BLE001 — one transcript's failure is its own
                failed = _failed(file.path, "its transcript could not be read", e)
                report.skipped.append(failed)
                await self.off_loop(self._skip, source_id, file.path, root, file.kind,
                                    failed.reason)
                return
            indexed_as = await self.off_loop(self.index.source_hash, source_id)
        source = SourceChunks(source_id, file.content_hash, chunks)
        report.chunks += len(source.chunks)
        if indexed_as != indexed_key(source, self.embedder, self.cache):
            waiting.append((root, file, source))  # indexed with its window's neighbours
            return
        report.unchanged.append(file.path)
        await self.off_loop(self._record, source_id, file.path, root, file.kind, "unchanged",
                            content_hash=file.content_hash, size=file.size, media=file.media)

    async def _hand_over(self, waiting: list[tuple[str, MaterialFile, SourceChunks]],
                         ahead: _Window | None, report: MaterialReport) -> _Window | None:
        """Start embedding the changed files read since the last window (their chunks in one
        pass: sorted by length, deduplicated), then write the window before it, whose vectors
        were made while these files were read. Returns the window now embedding."""
        window = None
        if waiting:
            sources = [w[2] for w in waiting]
            window = _Window(list(waiting), asyncio.ensure_future(
                embed_sources(sources, self.embedder, self.cache)))
            waiting.clear()
        if ahead is not None:
            try:
                await self._write(ahead, report)
            except BaseException:
                if window is not None:
                    window.embedding.cancel()
                raise
        return window

    async def _write(self, window: _Window, report: MaterialReport) -> None:
        """Index a window's files once their chunks are embedded, and record them imported."""
        await write_sources(self.index, await window.embedding, self.cache, self.off_loop)
        for root, file, source in window.files:
            report.imported.append(file.path)
            await self.off_loop(self._record, source.source_id, file.path, root, file.kind,
                                "imported", content_hash=file.content_hash, size=file.size,
                                media=file.media)

    def _record(self, source_id: str, path: str, root: str, kind: str, status: str, **extra: object) -> None:
        if self.sources is None or (kind == "note" and not self.record_notes):
            return
        known = self.sources.get(source_id)
        if status == "unchanged" and known is not None and known.status == "imported":
            return  # nothing changed: leave the record (and its import time) alone
        self.sources.save(Source.model_validate({
            "id": source_id, "path": path, "root": root, "kind": kind, "status": status,
            "imported_at": self.clock.now(), **{k: v for k, v in extra.items() if v is not None},
        }))

    def _forget_missing(self, root: str, target: str, seen: set[str], report: MaterialReport) -> None:
        """Files imported from this root (under the folder asked for) before that are gone
        now: reported, unindexed. Files elsewhere in the vault were not looked at."""
        if self.sources is None:
            return
        for source in self.sources.list():
            if source.root != root or source.id in seen or not under(source.path, target):
                continue
            if source.kind == "note":
                # The notes importer owns a note's record and marks it deleted; the note is not
                # in this scan, so its passages leave the index here, once (also healing an
                # index that kept them), whichever of the two imports runs first.
                if self.index.source_hash(source.id) is not None:
                    self.index.remove(source.id)
                    report.removed.append(source.path)
            elif source.status != "deleted":
                self.index.remove(source.id)
                self.sources.save(source.model_copy(update={"status": "deleted", "imported_at": self.clock.now()}))
                report.removed.append(source.path)
