"""The Library façade: everything the routes and commands ask of the learner's material and
the graph it became — imports (notes, course material, Anki decks) and their runs, extraction
of sessions into the graph, the graph's reads, node search and dragged positions, the sources
shelf and the reader, Quiz me.

One class, built once in ``build_runtime`` with every collaborator it needs, so the routes
take only it and never build a runner themselves (issue 26). The shelf (``SourceLibrary``)
and the quizzes (``SourceQuizzes``) are built on their first use, importing their modules
then: start-up loads no route group's runtime before its first request
(tests/unit/test_startup_imports.py).
"""

from __future__ import annotations

import asyncio
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studyhall.core.contracts.chat import session_title
from studyhall.core.contracts.graph import Position
from studyhall.core.contracts.sources import Source
from studyhall.core.library.graph.node_search import SearchHit
from studyhall.core.library.graph.snapshot import GraphSnapshot
from studyhall.core.library.imports.report import ImportReport, Mode, ProgressFn, quiet
from studyhall.core.library.retrieval.chunking import SourcePlace
from studyhall.core.library.sources.material_import import MaterialReport
from studyhall.core.ports.models import ChatModel, Embedder
from studyhall.core.ports.search import SearchIndex
from studyhall.core.ports.sources import MaterialReader, VaultReader
from studyhall.core.ports.storage import ChatStore, SettingsStore, SourceStore
from studyhall.core.ports.system import Clock, Ids
from studyhall.server.runtime.library.encoder_setup import EncoderSetup
from studyhall.server.runtime.library.extraction import ExtractionRun, ExtractionScheduler
from studyhall.server.runtime.library.graph_upkeep import GraphUpkeep
from studyhall.server.runtime.library.import_runs import ImportRun, ImportRunner
from studyhall.server.runtime.reactions import GraphMerged, TurnEnded

if TYPE_CHECKING:
    # Types only: the learner's package reaches into this one (its graph reader), and a
    # façade's package is imported whenever one of its modules is.
    from studyhall.server.runtime.learner import Learner
    from studyhall.server.runtime.library.source_library import SourceLibrary
    from studyhall.server.runtime.library.source_quiz import SourceQuizzes


FOLD_SAVE_WAIT_S = 60.0  # the longest shutdown waits for a fold-cache save (100k nodes: ~2 s)


class Library:
    def __init__(self, *, sources: SourceStore, index: SearchIndex, reader: MaterialReader,
                 notes: VaultReader, embedder: Embedder, upkeep: GraphUpkeep,
                 learner: Learner,
                 model: ChatModel, ids: Ids, clock: Clock, imports: ImportRunner,
                 extraction: ExtractionScheduler, chats: ChatStore,
                 settings: SettingsStore, setup: EncoderSetup) -> None:
        self._sources = sources
        self._index = index
        self._reader = reader
        self._notes = notes
        self._embedder = embedder
        self._upkeep = upkeep  # holds the one graph reader
        self._learner = learner
        self._model = model
        self._ids = ids
        self._clock = clock
        self._imports = imports
        self._extraction = extraction
        self._chats = chats
        self._settings = settings
        self._setup = setup

    async def shutdown(self) -> None:
        """A graph fold-cache save in flight ends before the process may exit: its thread is a
        daemon, and one torn down at exit inside native code aborts the process."""
        await asyncio.to_thread(self._upkeep.reader.settle, FOLD_SAVE_WAIT_S)

    @cached_property
    def _shelf(self) -> SourceLibrary:
        from studyhall.server.runtime.library.source_library import SourceLibrary

        return SourceLibrary(sources=self._sources, index=self._index, graph=self._upkeep.reader,
                             reader=self._reader, notes=self._notes,
                             embedder=self._embedder)

    @cached_property
    def _quizzes(self) -> SourceQuizzes:
        from studyhall.server.runtime.library.source_quiz import SourceQuizzes

        return SourceQuizzes(index=self._index, graph=self._upkeep.reader, learner=self._learner,
                             model=self._model, ids=self._ids, clock=self._clock)

    # --- imports ---------------------------------------------------------------------------

    def start_import(self, path: str, mode: Mode = "auto", embed: bool = True) -> ImportRun:
        """Import in the background, or join the import of the same path running now."""
        return self._imports.start(path, mode, embed)

    def import_run(self, run_id: str) -> ImportRun | None:
        return self._imports.get(run_id)

    def import_runs(self) -> list[ImportRun]:
        return self._imports.runs()

    def abort_import(self, run_id: str) -> bool:
        return self._imports.abort(run_id)

    async def import_here(self, path: str, *, mode: Mode = "auto", embed: bool = True,
                          progress: ProgressFn = quiet) -> ImportReport:
        """Import in the caller's task (a CLI command): the graph's side and the index's."""
        return await self._imports.run(path, mode=mode, embed=embed, progress=progress)

    async def index_material(self, path: str) -> MaterialReport:
        """Index course material for grounded questions only (no graph extraction)."""
        return await self._imports.material.run(path)

    async def startup(self) -> None:
        """The app starts: the local search encoder gets ready in the background, once per
        data folder, before the first import needs it (encoder_setup.py)."""
        self._setup.start()

    # --- reactions (declared in build_runtime's one table) -----------------------------------

    def turn_ended(self, ended: TurnEnded) -> None:
        """A turn past the session's ``chunk_tokens`` starts an extraction run."""
        self._extraction.on_turn_end(ended)

    def graph_merged(self, merged: GraphMerged) -> None:
        """New nodes get vectors, clusters and positions."""
        self._upkeep.graph_merged(merged)

    # --- sessions into the graph -------------------------------------------------------------

    def extract(self, chat_id: str) -> ExtractionRun:
        """Extract a session's uncovered messages now, or join the run in flight for it."""
        return self._extraction.start(chat_id)

    def coverage(self, chat_id: str) -> dict[str, Any]:
        """How much of a session is not in the graph yet, and the run in flight if any
        (blocking: reads the session and the settings)."""
        scheduler = self._extraction
        running = next((r.id for r in scheduler.runs()
                        if r.source_id == chat_id and r.status == "running"), None)
        # Counted in exchanges (a learner's message or a reply): what the learner reads.
        views = scheduler.chat_views(chat_id)
        covered = scheduler.covered(chat_id)
        left = sum(1 for v in views if v.fingerprint not in covered)
        return {"uncovered_tokens": scheduler.uncovered_tokens(chat_id),
                "uncovered_exchanges": left,
                "covered_exchanges": len(views) - left,
                "chunk_tokens": self._settings.load().chunk_tokens,
                "running": running,
                # Why "Add to graph" cannot work now (no key for the extractor's model), or None.
                "needs_key": scheduler.no_model()}

    def extraction_run(self, run_id: str) -> ExtractionRun | None:
        return self._extraction.get(run_id)

    def extraction_runs(self) -> list[ExtractionRun]:
        return self._extraction.runs()

    def abort_extraction(self, run_id: str) -> bool:
        return self._extraction.abort(run_id)

    # --- the graph -------------------------------------------------------------------------

    def graph(self) -> GraphSnapshot:
        """The graph with the learner's evidence in its nodes' states (blocking: a cold read
        folds)."""
        return self._learner.graph_with_evidence()

    def fsrs_state(self, node_id: str) -> dict[str, Any]:
        """A node's FSRS state for its detail (blocking): stability, difficulty, due_at,
        reviews."""
        return self._learner.fsrs_state(node_id)

    def stored_graph(self) -> GraphSnapshot:
        """The graph as the ledgers hold it, without the learner's evidence (blocking)."""
        return self._upkeep.snapshot()

    def sessions(self) -> dict[str, str]:
        """Every session (chat) id and what it is called, for the dock's "From your session"."""
        return {c.id: session_title(c) for c in self._chats.list()}

    async def find_nodes(self, query: str, snapshot: GraphSnapshot, *,
                         limit: int = 20) -> list[SearchHit]:
        """The nodes of ``snapshot`` best for ``query``, best first: the tutor's node lookup
        (text, then meaning over the cached vectors)."""
        from studyhall.server.runtime.library.node_finder import NodeFinder

        return await NodeFinder(self._upkeep).search(query, snapshot, limit=limit)

    async def search_graph(self, text: str, limit: int) -> dict[str, Any]:
        from studyhall.server.runtime.library.node_search import search_graph

        return await search_graph(self._upkeep, text, limit)

    async def keep_positions(self, positions: dict[str, Position]) -> dict[str, int]:
        from studyhall.server.runtime.library.node_search import keep_positions

        return await keep_positions(self._upkeep, positions)

    # --- the sources shelf (blocking: the routes call these off the event loop) ------------

    def sources(self) -> list[Source]:
        """Every imported source's record, as the sources index holds it."""
        return self._sources.list()

    def source(self, source_id: str) -> Source | None:
        """One source's record, or None when the index holds no such source."""
        return self._sources.get(source_id)

    def source_summaries(self) -> list[dict[str, Any]]:
        return self._shelf.summaries()

    def shelf_totals(self) -> dict[str, int]:
        return self._shelf.shelf_totals()

    def source_content(self, source_id: str) -> dict[str, Any]:
        return self._shelf.content(source_id)

    def source_media(self, source_id: str) -> tuple[Path, str]:
        return self._shelf.media(source_id)

    def source_image(self, source_id: str, path: str) -> tuple[Path, str]:
        return self._shelf.image(source_id, path)

    def remove_source(self, source_id: str) -> dict[str, Any]:
        return self._shelf.remove(source_id)

    def source_root(self, source_id: str) -> str:
        """The folder a source was imported from (``NotFound`` for no such source)."""
        return self._shelf.get(source_id).root

    def reimport(self, root: str) -> ImportRun:
        """Import a source's folder again, as ``POST /api/graph/import`` would (auto, embed)."""
        return self._imports.start(root, "auto", True)

    # --- Quiz me -----------------------------------------------------------------------------

    async def open_quiz(self, position: SourcePlace) -> dict[str, Any]:
        return await self._quizzes.open(position)

    def answer_quiz(self, source_id: str, quiz_id: str, answer: Any) -> dict[str, Any]:
        return self._quizzes.answer(source_id, quiz_id, answer)


__all__ = ["Library"]
