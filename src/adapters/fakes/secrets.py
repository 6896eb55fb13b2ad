"""``InMemorySecretStore``: API keys in a dict, with the same refusals as the real stores."""

from __future__ import annotations

import threading

from studyhall.core.errors import SecretError


class InMemorySecretStore:
    def __init__(self, initial: dict[str, str] | None = None) -> None:
        self._values: dict[str, str] = {}
        self._lock = threading.Lock()
        for name, value in (initial or {}).items():
            self.set(name, value)

    def __repr__(self) -> str:
        return f"InMemorySecretStore(names={self.names()})"  # never the values

    def get(self, name: str) -> str | None:
        with self._lock:
            return self._values.get(name)

    def set(self, name: str, value: str) -> None:
        if not isinstance(name, str) or not name.strip() or len(name) > 200:
            raise SecretError(f"Invalid key name {name!r}: use a provider name such as 'openai'.")
        if not isinstance(value, str) or not value.strip():
            raise SecretError(f"The key for {name!r} is empty; paste the full key.")
        with self._lock:
            self._values[name] = value

    def delete(self, name: str) -> None:
        with self._lock:
            self._values.pop(name, None)  # deleting an absent key is not an error

    def names(self) -> list[str]:
        with self._lock:
            return sorted(self._values)
