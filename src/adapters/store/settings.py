"""``JsonSettingsStore``: ``settings.json``, human-readable, replaced atomically; every change is
one load-modify-save under one lock, so concurrent changes are all kept."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from pydantic import ValidationError
from studyhall.adapters.errors import translated
from studyhall.adapters.store.atomic import atomic_write_bytes, sweep_temp_files
from studyhall.adapters.store.shape_guard import checked, describe_validation
from studyhall.core.contracts.settings import Settings
from studyhall.core.errors import StoreError


class JsonSettingsStore:
    def __init__(self, path: Path) -> None:
        self._path = Path(path)
        # Held across load-modify-save (``update``), not just the write: two requests that each
        # loaded the old file and saved their own change would keep only the last one. Only the
        # app's one server process writes settings (the CLI never does), so a thread lock is it.
        self._lock = threading.Lock()
        self._swept = False

    def __repr__(self) -> str:
        return f"JsonSettingsStore({str(self._path)!r})"

    def load(self) -> Settings:
        with translated("read the settings", write=False):
            try:
                raw = self._path.read_bytes()
            except FileNotFoundError:
                return Settings()
        try:
            return Settings.model_validate_json(raw)
        except ValidationError as e:
            # Never guess at a user's settings: say what is wrong and how to get going again.
            raise StoreError(
                f"Could not read the settings: {self._path} {describe_validation(e, Settings)}. "
                "Fix the file, or delete it to start again from the defaults."
            ) from e

    def save(self, settings: Settings) -> None:
        with self._lock:
            self._write(settings)

    def update(self, change: Callable[[Settings], Settings]) -> Settings:
        with self._lock:
            updated = change(self.load())
            self._write(updated)
            return updated

    def _write(self, settings: Settings) -> None:
        _, data = checked(Settings, settings, "the settings", indent=2)
        with translated("save the settings"):
            if not self._swept:
                sweep_temp_files(self._path.parent)
                self._swept = True
            atomic_write_bytes(self._path, data + b"\n")
