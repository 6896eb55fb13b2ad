"""The notes import of an app: its importer, its graph upkeep, and the registry of import runs.

One import at a time (a second request while one runs joins it); every run reports its stage
and progress for the activity feed, and can be aborted (between notes: a merge never awaits,
so an abort leaves whole notes merged and the rest for the next run).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from studyhall.core.errors import BusyError, StudyhallError
from studyhall.server.runtime.graph_upkeep import GraphUpkeep
from studyhall.server.runtime.imports import (
    ImportProgress,
    ImportReport,
    Mode,
    NotesImporter,
    ProgressFn,
)
from studyhall.server.runtime.library import graph_reader
from studyhall.server.runtime.model_ready import no_model_reason
from studyhall.server.runtime.prompts import load_prompt
from studyhall.server.runtime.run_book import RunBook
from studyhall.server.services import Services

log = logging.getLogger("studyhall.imports")

RunStatus = Literal["running", "done", "error", "aborted"]
KEEP_FINISHED = 20
_UPKEEP = "graph_upkeep"
_IMPORTS = "imports"


def graph_upkeep(services: Services) -> GraphUpkeep:
    upkeep = services.extras.get(_UPKEEP)
    if isinstance(upkeep, GraphUpkeep):
        return upkeep
    if services.graph_store is None:
        raise RuntimeError("graph upkeep needs services.graph_store")
    upkeep = GraphUpkeep(
        graph_store=services.graph_store,
        reader=graph_reader(services),
        embedder=services.embedder,
        chat_model=services.chat_model,
        prompt=load_prompt,
        model_usable=lambda: no_model_reason(services, "labeler") is None,
    )
    services.extras[_UPKEEP] = upkeep
    services.on_shutdown.append(upkeep.shutdown)
    return upkeep


def notes_importer(services: Services) -> NotesImporter:
    services.require(
        "the notes import", "vault_reader", "graph_store", "source_store", "clock", "ids"
    )
    return NotesImporter(
        vault_reader=services.vault_reader,  # type: ignore[arg-type]
        graph_store=services.graph_store,  # type: ignore[arg-type]
        source_store=services.source_store,  # type: ignore[arg-type]
        settings_store=services.settings_store,
        clock=services.clock,  # type: ignore[arg-type]
        ids=services.ids,  # type: ignore[arg-type]
        upkeep=graph_upkeep(services),
        chat_model=services.chat_model,
        prompt=load_prompt,
        no_model_reason=lambda: no_model_reason(services),
    )


async def import_path(
    services: Services,
    path: str,
    *,
    mode: Mode = "auto",
    embed: bool = True,
    progress: ProgressFn | None = None,
) -> tuple[ImportReport, dict[str, Any] | None]:
    """The whole import front door: notes into the graph, then every readable file (notes,
    transcripts, PDFs, text) into the retrieval index for grounded questions."""
    tell = progress or (lambda _p: None)
    report = await notes_importer(services).run(path, mode=mode, embed=embed, progress=tell)
    return report, await _index_material(services, path, embed, tell)


async def _index_material(
    services: Services, path: str, embed: bool, tell: ProgressFn
) -> dict[str, Any] | None:
    if services.search_index is None or services.material_reader is None:
        return None  # a build without retrieval
    from studyhall.server.runtime.material import material_importer

    try:
        indexer = material_importer(services)
        if not embed:  # passages are still found by their words
            indexer.embedder, indexer.cache = None, None
        elif indexer.embedder is services.embedder:
            indexer.cache = graph_upkeep(services).cache()  # one cache per model per process
        got = await indexer.run(
            path, lambda done, total, p: tell(ImportProgress("indexing", done, total, p))
        )
    except StudyhallError as e:
        log.warning("[import] the search index was not updated: %s", e)
        return {"error": str(e)}
    return {
        "imported": len(got.imported),
        "unchanged": len(got.unchanged),
        "skipped": len(got.skipped),
        "removed": len(got.removed),
        "chunks": got.chunks,
    }


@dataclass
class ImportRun:
    id: str
    path: str
    mode: Mode
    started_at: datetime
    status: RunStatus = "running"
    progress: ImportProgress = field(default_factory=lambda: ImportProgress("scanning", 0, 0))
    report: ImportReport | None = None
    material: dict[str, Any] | None = None  # the retrieval index's side of the import
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
            "report": (
                {**self.report.to_dict(), "material": self.material} if self.report else None
            ),
            "usage": (
                self.report.usage.model_dump(mode="json")
                if self.report and self.report.usage
                else None
            ),
            "error": self.error,
            "started_at": self.started_at.isoformat(),
            "finished_at": self.finished_at.isoformat() if self.finished_at else None,
        }


class ImportRunner:
    def __init__(self, services: Services) -> None:
        self._services = services
        self._book = RunBook[ImportRun]("import run", KEEP_FINISHED)
        self._active: ImportRun | None = None

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
        notes_importer(self._services)  # a build that cannot import fails here, not later
        assert self._services.ids and self._services.clock
        run = ImportRun(self._services.ids.new("import"), path, mode, self._services.clock.now())
        run.task = asyncio.get_running_loop().create_task(self._execute(run, embed))
        self._book.add(run)
        self._active = run
        return run

    async def _execute(self, run: ImportRun, embed: bool) -> None:
        def progress(p: ImportProgress) -> None:
            run.progress = p

        try:
            run.report, run.material = await import_path(
                self._services, run.path, mode=run.mode, embed=embed, progress=progress
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
            assert self._services.clock
            run.finished_at = self._services.clock.now()

    def get(self, run_id: str) -> ImportRun | None:
        return self._book.get(run_id)

    def runs(self) -> list[ImportRun]:
        return self._book.runs()

    async def wait(self, run_id: str) -> ImportRun:
        return await self._book.wait(run_id)

    def abort(self, run_id: str) -> bool:
        return self._book.abort(run_id)

    async def shutdown(self) -> None:
        if self._active is not None and self._active.task is not None:
            self._active.task.cancel()
            await asyncio.wait({self._active.task})


def import_runner(services: Services) -> ImportRunner:
    runner = services.extras.get(_IMPORTS)
    if isinstance(runner, ImportRunner):
        return runner
    runner = ImportRunner(services)
    services.extras[_IMPORTS] = runner
    services.on_shutdown.append(runner.shutdown)
    return runner
