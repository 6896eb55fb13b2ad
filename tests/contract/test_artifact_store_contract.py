"""The ArtifactStore contract, held against the in-memory and JSONL stores: round trip, a keep
replayed is kept once, deletion by tombstone, a bad batch refused whole; and what only the file
can show: a torn last line is skipped, never glued to the next record."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from studyhall.adapters.fakes import InMemoryArtifactStore
from studyhall.adapters.store import JsonlArtifactStore
from studyhall.core.contracts.artifacts import (
    Artifact,
    ArtifactCounts,
    ArtifactRemoved,
    Scope,
    artifact_id,
    live_artifacts,
    removal_id,
)
from studyhall.core.errors import StoreError
from studyhall.core.ports.storage import ArtifactStore

from tests.support.records import at


def kept(job: str, minute: float = 0, kind: str = "flashcards") -> Artifact:
    return Artifact(
        id=artifact_id(job, kind), kind=kind, title=f"Cards from {job}",
        scope=Scope(type="source", id="src_heaps", label="heaps.md"), created_at=at(minute),
        job_id=job, chat_id=None,
        content={"title": "Heaps", "cards": [{"front": "Parent of i?", "back": "(i-1)//2",
                                              "node_id": None, "evidence": "(i-1)//2"}]},
        counts=ArtifactCounts(cards=1, dropped=2))


def tombstone(job: str, minute: float = 5, kind: str = "flashcards") -> ArtifactRemoved:
    aid = artifact_id(job, kind)
    return ArtifactRemoved(id=removal_id(aid), artifact_id=aid, at=at(minute))


class ArtifactStoreContract:
    @pytest.fixture
    def store(self) -> ArtifactStore:
        raise NotImplementedError

    @pytest.fixture
    def reopen(self, store: ArtifactStore) -> Callable[[], ArtifactStore]:
        raise NotImplementedError

    def test_round_trip_in_append_order(self, store, reopen) -> None:
        store.keep([kept("job_a", 1), kept("job_b", 2)])
        store.keep([kept("job_c", 3, "notes")])
        for view in (store, reopen()):
            got = view.kept()
            assert [a.job_id for a in got.records] == ["job_a", "job_b", "job_c"]
            assert got.records[0] == kept("job_a", 1)
            assert got.records[0].content["cards"][0]["evidence"] == "(i-1)//2"
            assert (got.skipped, got.replayed) == (0, 0)

    def test_keeping_the_same_job_twice_keeps_it_once(self, store, reopen) -> None:
        store.keep([kept("job_a", 1)])
        store.keep([kept("job_a", 1)])  # a restart catching up on a job already kept
        for view in (store, reopen()):
            got = view.kept()
            assert [a.id for a in got.records] == [artifact_id("job_a", "flashcards")]
            assert got.replayed == 1

    def test_a_tombstone_takes_the_artifact_out_of_the_live_list(self, store, reopen) -> None:
        store.keep([kept("job_a", 1), kept("job_b", 2)])
        store.remove([tombstone("job_a")])
        store.remove([tombstone("job_a")])  # deleting twice: one tombstone
        for view in (store, reopen()):
            live = live_artifacts(view.kept().records, view.removed().records)
            assert [a.job_id for a in live] == ["job_b"]
            assert len(view.removed().records) == 1
            assert len(view.kept().records) == 2  # append-only: the record stays, hidden

    def test_a_batch_with_an_invalid_record_is_refused_whole(self, store, reopen) -> None:
        bad = kept("job_b").model_construct(id="", kind="nope", title="", scope=None)
        with pytest.raises(StoreError, match="record 2 of 2"):
            store.keep([kept("job_a"), bad])
        assert reopen().kept().records == ()

    def test_empty_ledgers_read_empty(self, store) -> None:
        assert store.kept().records == () and store.removed().records == ()
        store.keep([])
        assert live_artifacts(store.kept().records, store.removed().records) == []


class TestInMemoryArtifactStore(ArtifactStoreContract):
    @pytest.fixture
    def store(self) -> ArtifactStore:
        return InMemoryArtifactStore()

    @pytest.fixture
    def reopen(self, store: ArtifactStore) -> Callable[[], ArtifactStore]:
        return lambda: store


class TestJsonlArtifactStore(ArtifactStoreContract):
    @pytest.fixture
    def root(self, tmp_path: Path) -> Path:
        return tmp_path / "artifacts"

    @pytest.fixture
    def store(self, root: Path) -> ArtifactStore:
        return JsonlArtifactStore(root)

    @pytest.fixture
    def reopen(self, root: Path) -> Callable[[], ArtifactStore]:
        return lambda: JsonlArtifactStore(root)

    def test_a_torn_last_line_is_skipped_and_the_next_keep_starts_clean(self, store,
                                                                        root) -> None:
        store.keep([kept("job_a", 1)])
        with open(root / "kept.jsonl", "ab") as f:
            f.write(b'{"id": "art_job_b_notes", "kind": "no')  # a writer killed mid-line
        torn = JsonlArtifactStore(root).kept()
        assert [a.job_id for a in torn.records] == ["job_a"] and torn.skipped == 1
        assert "torn last line" in torn.skipped_reasons[0]
        store.keep([kept("job_c", 3)])
        after = JsonlArtifactStore(root).kept()
        assert [a.job_id for a in after.records] == ["job_a", "job_c"] and after.skipped == 1

    def test_the_files_live_in_the_artifacts_folder(self, store, root) -> None:
        store.keep([kept("job_a")])
        store.remove([tombstone("job_a")])
        assert sorted(p.name for p in root.iterdir()) == ["kept.jsonl", "removed.jsonl"]
