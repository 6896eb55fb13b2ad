"""The Library façade: what the Sources and Quiz me routes ask of imported material.

One class, built once in ``build_runtime`` with every collaborator it needs, so the routes
take only it and never build a runner themselves (issue 26). The shelf (``SourceLibrary``)
and the quizzes (``SourceQuizzes``) are built on their first use, importing their modules
then: start-up loads no route group's runtime before its first request
(tests/unit/test_startup_imports.py), as when the routes built them.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studyhall.core.library.retrieval.chunking import SourcePlace
from studyhall.core.ports.models import ChatModel, Embedder
from studyhall.core.ports.search import SearchIndex
from studyhall.core.ports.sources import MaterialReader, VaultReader
from studyhall.core.ports.storage import SourceStore
from studyhall.core.ports.system import Clock, Ids
from studyhall.server.runtime.graph_reader import GraphReader
from studyhall.server.runtime.import_runs import ImportRun, ImportRunner
from studyhall.server.runtime.learner import Learner

if TYPE_CHECKING:
    from studyhall.server.runtime.source_library import SourceLibrary
    from studyhall.server.runtime.source_quiz import SourceQuizzes


class Library:
    def __init__(self, *, sources: SourceStore, index: SearchIndex, graph: GraphReader,
                 reader: MaterialReader, notes: VaultReader, embedder: Embedder,
                 learner: Learner, model: ChatModel, ids: Ids, clock: Clock,
                 imports: ImportRunner) -> None:
        self._sources = sources
        self._index = index
        self._graph = graph
        self._reader = reader
        self._notes = notes
        self._embedder = embedder
        self._learner = learner
        self._model = model
        self._ids = ids
        self._clock = clock
        self._imports = imports

    @cached_property
    def _shelf(self) -> SourceLibrary:
        from studyhall.server.runtime.source_library import SourceLibrary

        return SourceLibrary(sources=self._sources, index=self._index, graph=self._graph,
                             reader=self._reader, notes=self._notes, embedder=self._embedder)

    @cached_property
    def _quizzes(self) -> SourceQuizzes:
        from studyhall.server.runtime.source_quiz import SourceQuizzes

        return SourceQuizzes(index=self._index, graph=self._graph, learner=self._learner,
                             model=self._model, ids=self._ids, clock=self._clock)

    # The sources shelf (blocking: the routes call these off the event loop).
    def source_summaries(self) -> list[dict[str, Any]]:
        return self._shelf.summaries()

    def source_content(self, source_id: str) -> dict[str, Any]:
        return self._shelf.content(source_id)

    def source_media(self, source_id: str) -> tuple[Path, str]:
        return self._shelf.media(source_id)

    def remove_source(self, source_id: str) -> dict[str, Any]:
        return self._shelf.remove(source_id)

    def source_root(self, source_id: str) -> str:
        """The folder a source was imported from (``NotFound`` for no such source)."""
        return self._shelf.get(source_id).root

    def reimport(self, root: str) -> ImportRun:
        """Import a source's folder again, as ``POST /api/graph/import`` would (auto, embed)."""
        return self._imports.start(root, "auto", True)

    # Quiz me.
    async def open_quiz(self, position: SourcePlace) -> dict[str, Any]:
        return await self._quizzes.open(position)

    def answer_quiz(self, source_id: str, quiz_id: str, answer: Any) -> dict[str, Any]:
        return self._quizzes.answer(source_id, quiz_id, answer)
