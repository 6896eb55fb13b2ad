"""Importing many files embeds their passages together: one embedder call for a window of
changed files (texts deduplicated, longest first), none for unchanged files, and each file's
passages still get their own vectors in the index."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from studyhall.adapters.fakes import FixedClock, InMemoryGraphStore, InMemorySourceStore
from studyhall.adapters.search.index import FileSearchIndex
from studyhall.adapters.sources.material import FileMaterialReader
from studyhall.core.library.imports.report import ImportProgress
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


async def test_the_next_window_is_read_while_one_embeds_and_a_stop_drops_it(
    tmp_path: Path, monkeypatch
) -> None:
    import asyncio

    import pytest
    from studyhall.core.library.sources import material_import

    monkeypatch.setattr(material_import, "WINDOW_CHUNKS", 2)  # a window every two files
    monkeypatch.setattr(material_import, "READ_AHEAD", 1)  # a trip off the loop per file
    root = tmp_path / "course"
    root.mkdir()
    for i in range(6):
        (root / f"file{i}.txt").write_text(f"File {i} holds one passage about idea {i}.\n")
    gate = asyncio.Event()
    embedder, index = HashEmbedder(gate=gate), FileSearchIndex(tmp_path / "index")
    read: list[int] = []

    def progress(at: ImportProgress) -> None:
        done = at.done
        read.append(done)
        if done == 3:  # the second window being read while the first embeds (held at the gate)
            assert embedder.calls == 1 and index.source_ids() == []
            gate.set()

    importer = _importer(tmp_path, embedder, index)
    importer.off_loop = asyncio.to_thread  # as in the app: reading yields to the embedding
    report = await asyncio.wait_for(importer.run(str(root), progress), 10)
    assert read == [1, 2, 3, 4, 5, 6] and len(report.imported) == 6
    assert len(index.source_ids()) == 6 and embedder.calls == 3

    # A failure while a window embeds: the run stops with it, the window's embedding is
    # cancelled, and nothing of that window is written. (The index's own disk failing stops the
    # run; one file failing to read would only skip that file.)
    (root / "file6.txt").write_text("A new file about idea six.\n")
    (root / "file7.txt").write_text("Another new file about idea seven.\n")
    held, writes = HashEmbedder(gate=asyncio.Event()), FileSearchIndex(tmp_path / "index")
    importer = _importer(tmp_path, held, writes)
    importer.off_loop = asyncio.to_thread
    reading, hash_of = importer.reader.read, writes.source_hash
    gone = False

    def reader(root_dir: str, rel: str):  # type: ignore[no-untyped-def]
        nonlocal gone
        gone = gone or rel == "file7.txt"
        return reading(root_dir, rel)

    def broken_index(source_id: str):  # type: ignore[no-untyped-def]
        if gone:  # the index is asked about file7, just read
            raise OSError("the disk went away")
        return hash_of(source_id)

    monkeypatch.setattr(importer.reader, "read", reader)
    monkeypatch.setattr(writes, "source_hash", broken_index)
    monkeypatch.setattr(material_import, "WINDOW_CHUNKS", 1)
    with pytest.raises(OSError, match="went away"):
        await asyncio.wait_for(importer.run(str(root)), 10)
    assert held.calls == 1  # file6's window had started embedding, and was dropped unwritten
    assert len(writes.source_ids()) == 6 and not any("file6" in s for s in writes.source_ids())


async def test_files_are_read_a_few_per_trip_off_the_loop(tmp_path: Path) -> None:
    from studyhall.core.library.sources.material_import import READ_AHEAD

    root = tmp_path / "course"
    root.mkdir()
    for i in range(READ_AHEAD * 2 + 3):
        (root / f"file{i:02d}.txt").write_text(f"File {i} is about idea number {i}.\n")
    trips: list[str] = []

    async def off_loop(fn, *args, **kwargs):  # type: ignore[no-untyped-def]
        trips.append(getattr(fn, "__name__", "?"))
        return fn(*args, **kwargs)

    importer = _importer(tmp_path, HashEmbedder(), FileSearchIndex(tmp_path / "index"))
    importer.off_loop = off_loop
    report = await importer.run(str(root))
    assert len(report.imported) == READ_AHEAD * 2 + 3
    # Three trips read and chunk every file (not one trip per file, each waiting for a turn
    # on a loop that may be busy merging notes).
    assert trips.count("_prepare") == 3 and "read" not in trips
