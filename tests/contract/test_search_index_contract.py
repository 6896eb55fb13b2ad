"""SearchIndex contract, held by the in-memory and the on-disk index alike."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from studyhall.adapters.search.index import FileSearchIndex
from studyhall.core.contracts.search import Chunk

from tests.support.embedder import HashEmbedder

TEXTS = {
    "gc": ["Mark and sweep marks reachable objects from the roots.", "Copying collectors avoid fragmentation."],
    "lex": ["The lexer applies the maximal munch rule.", "Keywords are matched before identifiers."],
}


def _chunks(sid: str) -> list[Chunk]:
    return [Chunk(f"{sid}:{i}", sid, f"{sid}.txt", "text", sid.upper(), f"p{i}", t, sentences=(t,))
            for i, t in enumerate(TEXTS[sid])]


def _vectors(chunks: list[Chunk]) -> list[tuple[float, ...]]:
    return asyncio.run(HashEmbedder().embed([c.text for c in chunks]))


def _fill(index: FileSearchIndex) -> None:
    for sid in TEXTS:
        chunks = _chunks(sid)
        index.upsert(sid, f"hash-{sid}", chunks, _vectors(chunks), "test/hash-64")


@pytest.fixture(params=["memory", "disk"])
def index(request: pytest.FixtureRequest, tmp_path: Path) -> FileSearchIndex:
    return FileSearchIndex(None if request.param == "memory" else tmp_path / "index")


def _query(index: FileSearchIndex, q: str, **kw):  # type: ignore[no-untyped-def]
    vec = asyncio.run(HashEmbedder().embed([q]))[0]
    return index.candidates(q, vec, limit=5, **kw)


class TestSearchIndexContract:
    def test_upsert_then_find_by_words_and_vectors(self, index: FileSearchIndex):
        _fill(index)
        found = _query(index, "what is the maximal munch rule")
        best = max(found, key=lambda c: c.signals["bm25"])
        assert best.chunk.id == "lex:0"
        assert set(best.signals) == {"bm25", "dense", "coverage"}
        assert best.signals["coverage"] == pytest.approx(1.0)
        assert index.size() == 4 and index.source_hash("gc") == "hash-gc"

    def test_scoped_search_stays_in_one_source(self, index: FileSearchIndex):
        _fill(index)
        assert {c.chunk.source_id for c in _query(index, "roots", source_id="lex")} <= {"lex"}
        assert _query(index, "roots", source_id="unknown") == []

    def test_upsert_replaces_a_source_and_remove_forgets_it(self, index: FileSearchIndex):
        _fill(index)
        new = [Chunk("gc:0", "gc", "gc.txt", "text", "GC", "", "Generational hypothesis: most objects die young.")]
        index.upsert("gc", "hash-2", new, _vectors(new), "test/hash-64")
        assert [c.text for c in index.chunks("gc")] == [new[0].text]
        assert any(c.chunk.id == "gc:0" for c in _query(index, "objects die young"))
        index.remove("gc")
        assert index.chunks("gc") == [] and index.source_hash("gc") is None
        assert all(c.chunk.source_id != "gc" for c in _query(index, "objects die young"))

    def test_vectors_are_compared_only_with_the_model_that_made_them(self, index: FileSearchIndex):
        assert index.vector_model() == "" and index.vector_models() == {}
        _fill(index)
        assert index.vector_model() == "test/hash-64" and index.vector_models() == {"test/hash-64": 4}
        same = _query(index, "maximal munch", model_id="test/hash-64")
        assert all("dense" in c.signals for c in same)
        # A query vector of the same length from another model is ignored: words only.
        other = _query(index, "maximal munch", model_id="other/model-64")
        assert other and all("dense" not in c.signals for c in other)
        assert max(other, key=lambda c: c.signals["bm25"]).chunk.id == "lex:0"

    def test_likely_typos_are_unknown_words_one_edit_from_a_known_one(self, index: FileSearchIndex):
        assert index.likely_typos("maximal munch") == []  # nothing indexed: nothing is near
        _fill(index)
        assert index.likely_typos("what is the maximl munch rule") == ["maximl"]
        assert index.likely_typos("how do copying colectors work") == ["colectors"]
        assert index.likely_typos("maximal munch rule") == []  # every word is known
        assert index.likely_typos("capital of peru") == []  # unknown, but near nothing indexed
        index.remove("lex")
        assert index.likely_typos("maximl munch") == []  # a removed source's words are gone

    def test_empty_index_and_unknown_words(self, index: FileSearchIndex):
        assert index.candidates("anything", None, limit=3) == []
        _fill(index)
        assert all(c.signals["bm25"] == 0 for c in index.candidates("zzzz qqqq", None, limit=3))


def test_disk_index_survives_a_restart(tmp_path: Path):
    _fill(FileSearchIndex(tmp_path / "index"))
    again = FileSearchIndex(tmp_path / "index")
    assert again.size() == 4 and again.source_hash("lex") == "hash-lex"
    assert _query(again, "maximal munch")[0].chunk.source_id in {"lex", "gc"}


def test_a_lecture_windows_cues_survive_a_restart_and_an_older_index_still_loads(tmp_path: Path):
    import json

    cued = Chunk("talk:0", "talk", "talk.vtt", "transcript", "Talk", "t=714", "One. Two.",
                 start=714.0, end=744.0, sentences=("One.", "Two."), cues=((0, 714.0), (5, 738.0)))
    FileSearchIndex(tmp_path / "index").upsert("talk", "h", [cued], _vectors([cued]), "test/hash-64")
    assert FileSearchIndex(tmp_path / "index").chunks("talk") == [cued]
    # An index written before cues were kept has none: it loads, its windows without them.
    [meta] = (tmp_path / "index" / "sources").glob("*.json")
    row = json.loads(meta.read_text())
    del row["chunks"][0]["cues"]
    meta.write_text(json.dumps(row))
    assert FileSearchIndex(tmp_path / "index").chunks("talk")[0].cues == ()


def test_a_corrupt_or_torn_file_is_dropped_and_the_rest_loads(tmp_path: Path):
    _fill(FileSearchIndex(tmp_path / "index"))
    folder = tmp_path / "index" / "sources"
    metas = sorted(folder.glob("*.json"))
    metas[0].write_text('{"format": 1, "source_id": "gc", "chun')  # torn write
    npys = sorted(folder.glob("*.npy"))
    npys[1].write_bytes(npys[1].read_bytes()[:-8])  # vectors cut short
    (folder / ".stray.json.123.tmp").write_text("half")  # a killed writer's temp file
    again = FileSearchIndex(tmp_path / "index")
    assert again.size() == 0 and len(again.dropped) == 2
    assert not list(folder.glob(".*.tmp"))
    # the next import re-indexes them: source_hash is unknown, so nothing is skipped as unchanged
    assert again.source_hash("gc") is None


def test_unwritable_index_folder_is_a_clear_store_error(tmp_path: Path):
    from studyhall.core.errors import StoreError

    blocker = tmp_path / "index"
    blocker.write_text("a file where the folder should be")
    index = FileSearchIndex(blocker)
    chunks = _chunks("gc")
    with pytest.raises(StoreError, match="search index"):
        index.upsert("gc", "h", chunks, _vectors(chunks), "m")
    assert index.size() == 0  # nothing half-added in memory either


def test_sources_without_vectors_or_from_another_model_do_not_break_dense_search(tmp_path: Path):
    index = FileSearchIndex(None)
    _fill(index)  # "test/hash-64" vectors
    plain = [Chunk("txt:0", "txt", "t.txt", "text", "T", "", "Maximal munch in a plain text file.")]
    index.upsert("txt", "h", plain, [()], "")  # imported while no embedder was available
    other = [Chunk("oth:0", "oth", "o.txt", "text", "O", "", "Another model's vector.")]
    index.upsert("oth", "h", other, [(1.0, 0.0, 0.0)], "other/model")
    found = {c.chunk.id: c.signals for c in _query(index, "maximal munch")}
    assert found["txt:0"]["dense"] == 0.0 and "lex:0" in found
