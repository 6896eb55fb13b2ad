"""The material a "Study this" session starts with, read through ports: the node from the graph
(``NotFound`` when the map holds no such node, in plain words), its note's passages from the
search index. Building it is ``core.agents.study_material``; reads run off the event loop.
"""

from __future__ import annotations

import asyncio

from studyhall.core.agents.study_material import StudyMaterial, study_material
from studyhall.core.contracts.search import Chunk
from studyhall.core.errors import EmptyScope, NotFound
from studyhall.core.library.graph.outline import node_sections_now
from studyhall.core.library.graph.view import SnapshotNode
from studyhall.core.library.sources.notes.views import NOTE_LABEL
from studyhall.core.ports.search import SearchIndex
from studyhall.core.ports.storage import SourceStore
from studyhall.server.runtime.library.graph_reader import GraphReader


class StudyMaterials:
    def __init__(self, *, graph: GraphReader, index: SearchIndex, sources: SourceStore) -> None:
        self._graph = graph
        self._index = index
        self._sources = sources  # each note's sections now: a heading it lost is not studied

    async def material(self, node_id: str) -> StudyMaterial:
        return await asyncio.to_thread(self._material, node_id)

    def _material(self, node_id: str) -> StudyMaterial:
        snapshot = self._graph.snapshot()
        # A node merged into another (a heading into its note) is studied as the one it is now.
        node = snapshot.node(snapshot.absorbed.get(node_id, node_id))
        if node is None:
            raise NotFound(f"There is no note or topic {node_id!r} on your map (it may have been "
                           "removed or merged). Pick it on the map again, then press Study this.")
        found = study_material(node, self._chunks(node),
                               node_sections_now(node, self._sources.get))
        if found.empty:
            raise EmptyScope(f"{node.text} has nothing to study from yet: import its note again "
                             "(or study it in a new session by its name).")
        return found

    def _chunks(self, node: SnapshotNode) -> list[Chunk]:
        """The indexed passages of the notes the node stands for (a note is one node)."""
        chunks: list[Chunk] = []
        for source_id in node.sources:
            if source_id.startswith(NOTE_LABEL + "_"):
                chunks += self._index.chunks(source_id)
        return chunks
