"""The import front door of an app: notes into the graph and every readable file into the
search index (side by side when both embed: one side's encoder work fills the cores while the
other merges) — or, for an Anki package (``.apkg``), its notes into the graph and its review
history into the learner model — run here (the CLI) or as a background run (HTTP) in the
registry of import runs.

One import at a time (a second request while one runs joins it); every run reports its stage
and progress for the activity feed, and can be aborted — or stopped by shutdown — between notes
(a merge never awaits, so a stop leaves whole notes merged and the rest for the next run).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from studyhall.core.errors import BusyError, StudyhallError
from studyhall.core.library.extraction.tally import MergeTally
from studyhall.core.library.imports.lectures import LectureFile, LectureTopics
from studyhall.core.library.imports.notes import NotesImporter
from studyhall.core.library.imports.report import (
    ImportProgress,
    ImportReport,
    MaterialSummary,
    Mode,
    ProgressFn,
    quiet,
)
from studyhall.core.ports.system import Clock, Ids
from studyhall.server.runtime.library.anki_import import AnkiImporter, is_anki_package
from studyhall.server.runtime.library.material import CourseMaterial
from studyhall.server.runtime.library.run_book import RunBook
from studyhall.server.runtime.supervisor import Supervisor

log = logging.getLogger("studyhall.imports")

RunStatus = Literal["running", "done", "error", "aborted"]
KEEP_FINISHED = 20


@dataclass
class ImportRun:
    id: str
    path: str
    mode: Mode
    started_at: datetime
    status: RunStatus = "running"
    progress: ImportProgress = field(default_factory=lambda: ImportProgress("scanning", 0, 0))
    report: ImportReport | None = None
    error: str | None = None
    finished_at: datetime | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.id,
            "kind": "import",
            "path": self.path,
            "mode": self.mode,
            "status": self.status,
            "stage": self.progress.stage,
            "progress": {
                "done": self.progress.done,
                "total": self.progress.total,
                "path": self.progress.path,
            },
            "report": self.report.to_dict() if self.report else None,
            "usage": (
                self.report.usage.model_dump(mode="json")
                if self.report and self.report.usage
                else None
            ),
            "error": self.error,
            "started_at": self.started_at.isoformat(),
            "finished_at": self.finished_at.isoformat() if self.finished_at else None,
        }


class _HeldProgress:
    """The search index's progress, held back while the graph's side reports its own (one
    stage at a time on the screen), shown from ``release()`` on."""

    def __init__(self, tell: ProgressFn) -> None:
        self._tell = tell
        self._last: ImportProgress | None = None
        self._released = False

    def tell(self, progress: ImportProgress) -> None:
        self._last = progress
        if self._released:
            self._tell(progress)

    def release(self) -> None:
        if not self._released and self._last is not None:
            self._tell(self._last)
        self._released = True


class ImportRunner:
    def __init__(self, *, notes: NotesImporter, material: CourseMaterial, clock: Clock, ids: Ids,
                 supervisor: Supervisor, anki: AnkiImporter, lectures: LectureTopics) -> None:
        self.notes = notes
        self.lectures = lectures
        self.material = material
        self.anki = anki
        self._clock = clock
        self._ids = ids
        self._supervisor = supervisor
        self._book = RunBook[ImportRun](KEEP_FINISHED)
        self._active: ImportRun | None = None

    async def run(
        self,
        path: str,
        *,
        mode: Mode = "auto",
        embed: bool = True,
        progress: ProgressFn = quiet,
    ) -> ImportReport:
        """Import ``path`` in the caller's task: notes into the graph and every readable file
        (notes, transcripts, PDFs, text) into the retrieval index for grounded questions. An
        Anki package goes to the Anki importer alone (a deck is not course material)."""
        tell = progress
        if is_anki_package(path):
            return await self.anki.run(path, embed=embed, progress=tell)
        if not embed:  # all Python: side by side, the two would only take turns on the GIL
            report = await self.notes.run(path, mode=mode, embed=False, progress=tell)
            report.material, indexed = await self._index_material(path, False, tell)
            self._count(report, await self.lectures.merge(indexed))
            return report
        # The search index's side runs beside the graph's: its encoder work fills the cores
        # while the notes are merged (Python, one core), and its file writes run while the
        # nodes are embedded. Its progress shows once the graph's side waits for it. It starts
        # the one-time model export at its first file: a child process a quit kills, not waits
        # for (``onnx_export``).
        held = _HeldProgress(tell)
        indexing = asyncio.create_task(self._index_material(path, True, held.tell))
        merged: list[MergeTally] = []

        async def index_done() -> bool:
            """The graph's side is merged and embedded: the lectures' topics join it (one
            writer at a time), and the upkeep embeds them too when there are new ones."""
            held.release()
            _, indexed = await indexing
            if not merged:
                merged.append(await self.lectures.merge(indexed))
            return bool(merged[0].propositions or merged[0].evidence)

        try:
            report = await self.notes.run(path, mode=mode, embed=True, progress=tell,
                                          arrange_after=index_done)
            await index_done()  # an import with nothing for the upkeep to arrange
            report.material = (await indexing)[0]
            self._count(report, merged[0])
            return report
        except BaseException:
            if not indexing.done():
                indexing.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await indexing  # its writes end before the run reports the failure
            raise

    @staticmethod
    def _count(report: ImportReport, lectures: MergeTally) -> None:
        """The lectures' topics in the import's totals (their own tally, merged after)."""
        report.propositions += lectures.propositions
        report.evidence += lectures.evidence
        report.dropped += lectures.dropped

    async def _index_material(self, path: str, embed: bool,
                              tell: ProgressFn) -> tuple[MaterialSummary, list[LectureFile]]:
        """The index's side, and the transcripts and PDFs it holds (for their topics)."""
        try:
            got = await self.material.run(path, tell, embed=embed)
        except StudyhallError as e:
            log.warning("[import] the search index was not updated: %s", e)
            return MaterialSummary(error=str(e)), []
        lectures = [LectureFile(kind, rel, got.root_name) for kind, rel in got.indexed()]
        return MaterialSummary(imported=len(got.imported), unchanged=len(got.unchanged),
                               skipped=len(got.skipped), removed=len(got.removed),
                               chunks=got.chunks, kinds=got.kinds()), lectures

    def start(self, path: str, mode: Mode = "auto", embed: bool = True) -> ImportRun:
        """Start an import in the background, or join the one running for the same path
        (another path while one runs: ``BusyError``, one writer at a time)."""
        active = self._active
        if active is not None and active.status == "running":
            if active.path == path:
                return active
            raise BusyError(
                f"An import of {active.path} is running. Wait for it to finish, or stop it "
                f"(run {active.id}), then import {path}."
            )
        run = ImportRun(self._ids.new("import"), path, mode, self._clock.now())
        run.task = self._supervisor.spawn(f"import {run.id}", self._execute(run, embed))
        self._book.add(run)
        self._active = run
        return run

    async def _execute(self, run: ImportRun, embed: bool) -> None:
        def progress(p: ImportProgress) -> None:
            run.progress = p

        try:
            run.report = await self.run(
                run.path, mode=run.mode, embed=embed, progress=progress
            )
            run.progress = ImportProgress("done", run.report.notes, run.report.notes)
            run.status = "done"
        except asyncio.CancelledError:
            run.status = "aborted"
            run.error = (
                "Stopped; every note merged so far is kept, and importing again "
                "continues from there."
            )
            raise
        except StudyhallError as e:
            run.status, run.error = "error", str(e)
            log.warning("[import %s] failed: %s", run.id, e)
        except Exception as e:
            run.status = "error"
            run.error = (
                "The import failed unexpectedly; see the log. Whatever was merged is "
                "kept, and importing again continues from there."
            )
            log.exception("[import %s] failed: %s", run.id, type(e).__name__)
        finally:
            run.finished_at = self._clock.now()

    def get(self, run_id: str) -> ImportRun | None:
        return self._book.get(run_id)

    def runs(self) -> list[ImportRun]:
        return self._book.runs()

    def abort(self, run_id: str) -> bool:
        return self._book.abort(run_id)
