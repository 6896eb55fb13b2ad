"""Course material through the import front door: ``CourseMaterial.run(path)`` reads
transcripts / PDFs / text (and indexes Markdown notes for retrieval), chunks them and updates
the search index incrementally, embedding through the app's one vector cache per model.

The import runner (``studyhall import``, ``POST /api/graph/import``) calls it next to the notes
import (notes keep their own ``Source`` records and graph extraction); ``studyhall eval`` too.
Every file read and index write runs in a worker thread, never on the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from studyhall.core.library.imports.report import ProgressFn, quiet
from studyhall.core.library.sources.material_import import MaterialImporter, MaterialReport
from studyhall.core.library.upkeep.vector_cache import VectorCache
from studyhall.core.ports.models import Embedder, Transcriber
from studyhall.core.ports.search import SearchIndex
from studyhall.core.ports.sources import MaterialReader
from studyhall.core.ports.storage import GraphStore, SourceStore
from studyhall.core.ports.system import Clock
from studyhall.server.runtime.library.graph_upkeep import GraphUpkeep


class CourseMaterial:
    def __init__(self, *, reader: MaterialReader, index: SearchIndex, clock: Clock,
                 sources: SourceStore, graph_store: GraphStore, embedder: Embedder,
                 upkeep: GraphUpkeep, transcriber: Transcriber,
                 no_transcriber: Callable[[], str | None],
                 transcriber_action: Callable[[], str]) -> None:
        self._reader = reader
        self._index = index
        self._clock = clock
        self._sources = sources
        self._graph = graph_store
        self._embedder = embedder
        self._upkeep = upkeep
        self._transcriber = transcriber
        self._no_transcriber = no_transcriber  # why no transcriber can run (no key), told free
        self._transcriber_action = transcriber_action  # what the learner can do about it

    def importer(self, *, embed: bool = True) -> MaterialImporter:
        """An importer for one run; without ``embed`` passages are found by their words only.
        An embedding model that cannot load fails here, with its reason."""
        if not embed:
            return MaterialImporter(reader=self._reader, index=self._index, clock=self._clock,
                                    sources=self._sources, off_loop=asyncio.to_thread,
                                    transcriber=self._transcriber,
                                    no_transcriber=self._no_transcriber,
                                transcriber_action=self._transcriber_action)
        # The upkeep's cache: one per model per process, shared with the graph's vectors. When
        # it has none (the model cannot load), a cache of our own raises the model's reason.
        cache = self._upkeep.cache() or VectorCache(self._embedder, self._graph,
                                                   off_loop=asyncio.to_thread)
        return MaterialImporter(reader=self._reader, index=self._index, clock=self._clock,
                                sources=self._sources, embedder=self._embedder, cache=cache,
                                off_loop=asyncio.to_thread, transcriber=self._transcriber,
                                no_transcriber=self._no_transcriber,
                                transcriber_action=self._transcriber_action)

    async def run(self, path: str, progress: ProgressFn = quiet, *,
                  embed: bool = True) -> MaterialReport:
        return await self.importer(embed=embed).run(path, progress)
