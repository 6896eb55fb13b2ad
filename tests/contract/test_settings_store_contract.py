"""The SettingsStore contract, held against the in-memory store and ``settings.json``."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from studyhall.adapters.fakes import InMemorySettingsStore
from studyhall.adapters.store import JsonSettingsStore
from studyhall.core.contracts.settings import MODEL_ROLES, RoleModel, Settings
from studyhall.core.errors import StoreError
from studyhall.core.ports.storage import SettingsStore


def custom() -> Settings:
    models = dict(Settings().models)
    models["teacher"] = RoleModel(model="ollama/llama3.1", api_base="http://127.0.0.1:11434")
    return Settings(models=models, chunk_tokens=4000)


class SettingsStoreContract:
    @pytest.fixture
    def store(self) -> SettingsStore:
        raise NotImplementedError

    @pytest.fixture
    def reopen(self, store: SettingsStore) -> Callable[[], SettingsStore]:
        raise NotImplementedError

    def test_defaults_when_nothing_is_saved(self, store: SettingsStore) -> None:
        assert store.load() == Settings()

    def test_saved_settings_read_back_equal(self, store: SettingsStore, reopen) -> None:
        store.save(custom())
        assert store.load() == custom()
        assert reopen().load() == custom()
        assert reopen().load().model_for("teacher").api_base == "http://127.0.0.1:11434"

    def test_invalid_settings_are_refused_and_the_saved_ones_kept(self, store, reopen) -> None:
        store.save(custom())
        too_small = Settings.model_construct(**{**custom().__dict__, "chunk_tokens": 5})
        with pytest.raises(StoreError, match="does not fit Settings"):
            store.save(too_small)
        with pytest.raises(StoreError, match="expected a Settings"):
            store.save({"chunk_tokens": 3000})  # type: ignore[arg-type]
        assert reopen().load() == custom()

    def test_updates_from_many_threads_are_all_kept(self, store: SettingsStore, reopen) -> None:
        # Each thread changes its own role from what it loads: a load-then-save without one
        # lock around both keeps only some of them.
        def change(role: str) -> None:
            def to(current: Settings) -> Settings:
                models = {**current.models, role: RoleModel(model=f"ollama/{role}")}
                return Settings.model_validate({**current.model_dump(), "models": models})
            store.update(to)

        threads = [threading.Thread(target=change, args=(r,)) for r in MODEL_ROLES]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for role in MODEL_ROLES:
            assert reopen().load().model_for(role).model == f"ollama/{role}"

    def test_a_refused_update_keeps_the_saved_settings(self, store, reopen) -> None:
        store.save(custom())
        with pytest.raises(StoreError, match="does not fit Settings"):
            store.update(lambda s: Settings.model_construct(**{**s.__dict__, "chunk_tokens": 5}))
        assert reopen().load() == custom()


class TestInMemorySettingsStore(SettingsStoreContract):
    @pytest.fixture
    def store(self) -> SettingsStore:
        return InMemorySettingsStore()

    @pytest.fixture
    def reopen(self, store: SettingsStore) -> Callable[[], SettingsStore]:
        return lambda: store


class TestJsonSettingsStore(SettingsStoreContract):
    @pytest.fixture
    def store(self, tmp_path: Path) -> SettingsStore:
        return JsonSettingsStore(tmp_path / "settings.json")

    @pytest.fixture
    def reopen(self, tmp_path: Path) -> Callable[[], SettingsStore]:
        return lambda: JsonSettingsStore(tmp_path / "settings.json")

    def test_a_damaged_file_is_reported_not_replaced(self, store, tmp_path: Path) -> None:
        path = tmp_path / "settings.json"
        path.write_text('{"chunk_tokens": ')
        with pytest.raises(StoreError, match="delete it to start again from the defaults"):
            store.load()
        assert path.read_text() == '{"chunk_tokens": '
