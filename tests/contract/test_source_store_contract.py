"""The SourceStore contract, held against the in-memory store and the JSON index store."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from studyhall.adapters.fakes import InMemorySourceStore
from studyhall.adapters.store import JsonSourceStore
from studyhall.core.contracts.sources import Source
from studyhall.core.errors import NotFound, StoreError
from studyhall.core.ports.storage import SourceStore

from tests.support.records import source


class SourceStoreContract:
    @pytest.fixture
    def store(self) -> SourceStore:
        raise NotImplementedError

    @pytest.fixture
    def reopen(self, store: SourceStore) -> Callable[[], SourceStore]:
        raise NotImplementedError

    def test_saved_source_reads_back_equal(self, store: SourceStore, reopen) -> None:
        store.save(source("src_1", "a.md"))
        assert store.get("src_1") == source("src_1", "a.md")
        assert reopen().get("src_1") == source("src_1", "a.md")

    def test_a_notes_sections_read_back_in_order(self, store: SourceStore, reopen) -> None:
        sections = ("", "Cells", "Cells#Membrane", "Cells#Membrane~2")
        store.save(source("src_1", "a.md").model_copy(update={"sections": sections}))
        assert reopen().get("src_1").sections == sections  # type: ignore[union-attr]

    def test_save_upserts_by_id(self, store: SourceStore, reopen) -> None:
        store.save(source("src_1", "a.md"))
        store.save(source("src_1", "a.md", status="unchanged"))
        assert [s.status for s in reopen().list()] == ["unchanged"]

    def test_list_is_ordered_by_root_then_path(self, store: SourceStore, reopen) -> None:
        store.save_many(
            [
                source("src_3", "z.md", root="/a"),
                source("src_1", "b.md", root="/b"),
                source("src_2", "a.md", root="/b"),
            ]
        )
        assert [s.id for s in reopen().list()] == ["src_3", "src_2", "src_1"]

    def test_save_many_is_all_or_nothing(self, store: SourceStore) -> None:
        store.save(source("src_1", "a.md"))
        bad = Source.model_construct(**{**source("src_2", "b.md").__dict__, "kind": "movie"})
        with pytest.raises(StoreError, match="does not fit Source"):
            store.save_many([source("src_1", "a.md", status="skipped"), bad])
        assert store.list() == [source("src_1", "a.md")]

    def test_remove(self, store: SourceStore, reopen) -> None:
        store.save_many([source("src_1", "a.md"), source("src_2", "b.md")])
        store.remove("src_1")
        assert reopen().get("src_1") is None
        assert [s.id for s in reopen().list()] == ["src_2"]

    def test_unknown_source(self, store: SourceStore) -> None:
        assert store.get("src_nope") is None
        with pytest.raises(NotFound):
            store.remove("src_nope")
        assert store.list() == []


class TestInMemorySourceStore(SourceStoreContract):
    @pytest.fixture
    def store(self) -> SourceStore:
        return InMemorySourceStore()

    @pytest.fixture
    def reopen(self, store: SourceStore) -> Callable[[], SourceStore]:
        return lambda: store


class TestJsonSourceStore(SourceStoreContract):
    @pytest.fixture
    def store(self, tmp_path: Path) -> SourceStore:
        return JsonSourceStore(tmp_path / "sources")

    @pytest.fixture
    def reopen(self, tmp_path: Path) -> Callable[[], SourceStore]:
        return lambda: JsonSourceStore(tmp_path / "sources")

    def test_an_index_written_before_sections_were_recorded_still_reads(self, tmp_path: Path):
        # What the code before ``Source.sections`` wrote: no "sections" key at all.
        (tmp_path / "sources").mkdir()
        (tmp_path / "sources" / "index.json").write_text(json.dumps({"version": 1, "sources": [
            {"id": "note_a", "path": "a.md", "root": "/v", "kind": "note", "status": "imported",
             "reason": None, "action": None, "content_hash": "abc", "size": 12,
             "links": ["b.md"], "broken_links": [], "media": None,
             "imported_at": "2025-03-01T12:00:00Z"}]}))
        store = JsonSourceStore(tmp_path / "sources")
        [old] = store.list()
        assert (old.id, old.links, old.sections) == ("note_a", ("b.md",), None)
        store.save(source("src_2", "b.md"))  # rewritten beside a new record: still readable
        assert JsonSourceStore(tmp_path / "sources").get("note_a") == old
