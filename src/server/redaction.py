"""Secret redaction: every known secret value and anything key-shaped is masked in log text.

Known values come from the app's secret store (wrapped by ``RedactingSecretStore``, so a key
is registered the moment it is read or saved), the per-launch token and key-like environment
variables. The core's key-shape patterns catch the rest (``sk-...``, ``Bearer ...``,
``token=...``).
"""

from __future__ import annotations

import logging
import os
import re
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING

from studyhall.core.errors import SecretError
from studyhall.core.redaction import MASK, mask_key_shapes

if TYPE_CHECKING:  # the port's module loads every contract: the log is set up before those
    from studyhall.core.ports.storage import SecretStore

_MIN_SECRET_LEN = 6  # shorter values would mask ordinary words
_SECRET_ENV = re.compile(r"(?i)(API_?KEY|TOKEN|SECRET|PASSWORD)$")


class Redactor:
    """Masks registered secret values and key-shaped strings. Thread-safe; cheap to call."""

    def __init__(self) -> None:
        self._values: set[str] = set()
        self._lock = threading.Lock()
        self._regex: re.Pattern[str] | None = None

    def register(self, value: str | None) -> None:
        if not value or len(value) < _MIN_SECRET_LEN:
            return
        with self._lock:
            if value not in self._values:
                self._values.add(value)
                self._regex = None

    def register_environment(self, env: Mapping[str, str] | None = None) -> None:
        for name, value in (os.environ if env is None else env).items():
            if _SECRET_ENV.search(name):
                self.register(value)

    def redact(self, text: str) -> str:
        regex = self._compiled()
        if regex is not None:
            text = regex.sub(MASK, text)
        return mask_key_shapes(text)

    def _compiled(self) -> re.Pattern[str] | None:
        with self._lock:
            if self._regex is None and self._values:
                # Longest first so a secret containing another is masked whole.
                ordered = sorted(self._values, key=len, reverse=True)
                self._regex = re.compile("|".join(re.escape(v) for v in ordered))
            return self._regex


# One per process: log handlers are process-wide, so the set of known secrets is too.
REDACTOR = Redactor()


class RedactingSecretStore:
    """Wraps the real secret store so every value it reads or saves is known to the redactor."""

    def __init__(self, inner: SecretStore, redactor: Redactor = REDACTOR) -> None:
        self._inner = inner
        self._redactor = redactor

    def __repr__(self) -> str:
        return f"RedactingSecretStore({self._inner!r})"

    @property
    def inner(self) -> SecretStore:
        return self._inner

    def get(self, name: str) -> str | None:
        value = self._inner.get(name)
        self._redactor.register(value)
        return value

    def set(self, name: str, value: str) -> None:
        self._redactor.register(value)  # before saving: an error on the way must not leak it
        self._inner.set(name, value)

    def delete(self, name: str) -> None:
        self._inner.delete(name)

    def names(self) -> list[str]:
        return self._inner.names()

    def preload(self) -> bool:
        """Register every stored value now, so even a log line before first use is masked.

        A store that cannot be read (corrupt file, locked keyring) must not stop the app: the
        error is logged (it never contains a value) and surfaces again where a key is needed.
        """
        try:
            for name in self.names():
                self.get(name)
        except SecretError as e:
            logging.getLogger("studyhall.secrets").warning("[secrets] %s", e)
            return False
        return True
