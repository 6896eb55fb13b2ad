"""The JobStore contract, held against the in-memory store and the JSON file store."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from studyhall.adapters.fakes import InMemoryJobStore
from studyhall.adapters.store import JsonJobStore
from studyhall.core.contracts.jobs import Job
from studyhall.core.errors import StoreError
from studyhall.core.ports.storage import JobStore

from tests.support.records import at, job


class JobStoreContract:
    @pytest.fixture
    def store(self) -> JobStore:
        raise NotImplementedError

    @pytest.fixture
    def reopen(self, store: JobStore) -> Callable[[], JobStore]:
        raise NotImplementedError

    def test_saved_job_reads_back_equal(self, store: JobStore, reopen) -> None:
        store.save(job("job_1"))
        assert store.get("job_1") == job("job_1")
        assert reopen().get("job_1") == job("job_1")

    def test_save_upserts_by_id(self, store: JobStore, reopen) -> None:
        store.save(job("job_1"))
        done = job("job_1").model_copy(
            update={"status": "done", "result": {"text": "Rayleigh"}, "updated_at": at(5)}
        )
        store.save(done)
        store.save(done)  # a replay
        assert reopen().list() == [done]

    def test_list_is_oldest_first_and_filters_by_chat(self, store: JobStore, reopen) -> None:
        store.save(job("job_c", chat_id="chat_b", minute=2))
        store.save(job("job_a", chat_id="chat_a", minute=0))
        store.save(job("job_b", chat_id="chat_a", minute=1))
        store.save(job("job_0", chat_id="chat_a", minute=1))
        view = reopen()
        assert [j.id for j in view.list()] == ["job_a", "job_0", "job_b", "job_c"]
        assert [j.id for j in view.list("chat_a")] == ["job_a", "job_0", "job_b"]
        assert view.list("chat_none") == []

    def test_unknown_or_hostile_id_is_none(self, store: JobStore) -> None:
        assert store.get("job_nope") is None
        assert store.get("../x") is None
        assert store.list() == []

    def test_invalid_job_is_refused_and_never_written(self, store: JobStore) -> None:
        store.save(job("job_1"))
        bad_kind = Job.model_construct(**{**job("job_2").__dict__, "kind": "mining"})
        with pytest.raises(StoreError, match="does not fit Job"):
            store.save(bad_kind)
        changed = Job.model_construct(**{**job("job_1").__dict__, "attempts": "many"})
        with pytest.raises(StoreError):
            store.save(changed)
        with pytest.raises(StoreError, match="job id may only contain"):
            store.save(job("a/b"))
        with pytest.raises(StoreError, match="expected a Job"):
            store.save({"id": "job_3"})  # type: ignore[arg-type]
        assert store.list() == [job("job_1")]


class TestInMemoryJobStore(JobStoreContract):
    @pytest.fixture
    def store(self) -> JobStore:
        return InMemoryJobStore()

    @pytest.fixture
    def reopen(self, store: JobStore) -> Callable[[], JobStore]:
        return lambda: store


class TestJsonJobStore(JobStoreContract):
    @pytest.fixture
    def store(self, tmp_path: Path) -> JobStore:
        return JsonJobStore(tmp_path / "jobs")

    @pytest.fixture
    def reopen(self, tmp_path: Path) -> Callable[[], JobStore]:
        return lambda: JsonJobStore(tmp_path / "jobs")
