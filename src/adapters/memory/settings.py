"""``InMemorySettingsStore``: the SettingsStore contract held in a field."""

from __future__ import annotations

from studyhall.adapters.store.shape_guard import checked
from studyhall.core.contracts.settings import Settings


class InMemorySettingsStore:
    def __init__(self, initial: Settings | None = None) -> None:
        self._settings: Settings | None = None
        if initial is not None:
            self.save(initial)

    def load(self) -> Settings:
        return self._settings if self._settings is not None else Settings()

    def save(self, settings: Settings) -> None:
        self._settings, _ = checked(Settings, settings, "the settings")
