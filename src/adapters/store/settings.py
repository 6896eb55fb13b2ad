"""``JsonSettingsStore``: ``settings.json``, human-readable, replaced atomically."""

from __future__ import annotations

import threading
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
        _, data = checked(Settings, settings, "the settings", indent=2)
        with self._lock, translated("save the settings"):
            if not self._swept:
                sweep_temp_files(self._path.parent)
                self._swept = True
            atomic_write_bytes(self._path, data + b"\n")
