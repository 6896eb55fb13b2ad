"""``InMemorySettingsStore``: the SettingsStore contract held in a field."""

from __future__ import annotations

import threading
from collections.abc import Callable

from studyhall.adapters.store.shape_guard import checked
from studyhall.core.contracts.settings import Settings


class InMemorySettingsStore:
    def __init__(self, initial: Settings | None = None) -> None:
        self._settings: Settings | None = None
        self._lock = threading.Lock()  # ``update`` is one step, as in the file store
        if initial is not None:
            self.save(initial)

    def load(self) -> Settings:
        return self._settings if self._settings is not None else Settings()

    def save(self, settings: Settings) -> None:
        with self._lock:
            self._settings, _ = checked(Settings, settings, "the settings")

    def update(self, change: Callable[[Settings], Settings]) -> Settings:
        with self._lock:
            self._settings, _ = checked(Settings, change(self.load()), "the settings")
            return self._settings
