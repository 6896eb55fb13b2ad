"""Course material through the import front door: ``import_course_material(services, path)``
reads transcripts / PDFs / text (and indexes Markdown notes for retrieval), chunks them and
updates the search index incrementally, embedding through the cache when one is wired.

The ``studyhall import`` command and ``POST /api/graph/import`` call this next to the notes
import (notes keep their own ``Source`` records and graph extraction).
"""

from __future__ import annotations

from studyhall.core.errors import StudyhallError
from studyhall.core.library.sources.material_import import (
    MaterialImporter,
    MaterialReport,
    Progress,
)
from studyhall.core.library.upkeep.vector_cache import VectorCache
from studyhall.server.services import Services


def material_importer(services: Services) -> MaterialImporter:
    if services.search_index is None or services.material_reader is None or services.clock is None:
        raise StudyhallError("Course material import is not wired in this build (server/app.py).")
    embedder = services.embedder or services.local_encoder
    cache = (VectorCache(embedder, services.graph_store)
             if embedder is not None and services.graph_store is not None else None)
    return MaterialImporter(
        reader=services.material_reader, index=services.search_index, clock=services.clock,
        sources=services.source_store, embedder=embedder, cache=cache,
    )


async def import_course_material(services: Services, path: str,
                                 progress: Progress | None = None) -> MaterialReport:
    return await material_importer(services).run(path, progress)
