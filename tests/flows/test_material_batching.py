"""Importing many files embeds their passages together: one embedder call for a window of
changed files (texts deduplicated, longest first), none for unchanged files, and each file's
passages still get their own vectors in the index."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from studyhall.adapters.memory import FixedClock, InMemoryGraphStore, InMemorySourceStore
from studyhall.adapters.search.index import FileSearchIndex
from studyhall.adapters.sources.material import FileMaterialReader
from studyhall.core.library.retrieval.indexing import embed_text
from studyhall.core.library.sources.material_import import MaterialImporter
from studyhall.core.library.upkeep.vector_cache import VectorCache

from tests.support.embedder import HashEmbedder, hash_vector


def _importer(tmp_path: Path, embedder: HashEmbedder, index: FileSearchIndex) -> MaterialImporter:
    return MaterialImporter(FileMaterialReader(), index, FixedClock(), sources=InMemorySourceStore(),
                            cache=VectorCache(embedder, InMemoryGraphStore()))


async def test_a_window_of_files_is_embedded_in_one_call_longest_first(tmp_path: Path) -> None:
    root = tmp_path / "course"
    root.mkdir()
    for i in range(12):
        body = f"Topic {i} explains the {'long ' * i}idea of file {i}.\n"
        (root / f"file{i:02d}.txt").write_text(body + "Shared closing line for every file.\n\n")
    embedder, index = HashEmbedder(), FileSearchIndex(tmp_path / "index")
    report = await _importer(tmp_path, embedder, index).run(str(root))
    assert len(report.imported) == 12
    assert embedder.calls == 1  # not one call per file
    texts = embedder.batches[0]
    assert len(texts) == len(set(texts))  # a passage two files share is embedded once
    assert [len(t) for t in texts] == sorted((len(t) for t in texts), reverse=True)
    for source_id in index.source_ids():
        chunks = index.chunks(source_id)
        stored = index._sources[source_id].vectors
        expected = np.asarray([hash_vector(embed_text(c)) for c in chunks], dtype=np.float32)
        assert np.allclose(stored, expected)  # each passage has its own vector, in order

    again = await _importer(tmp_path, embedder, index).run(str(root))
    assert len(again.unchanged) == 12 and embedder.calls == 1  # unchanged: nothing embedded
