"""The model-call audit log: one JSON row per model call in ``<data_dir>/audit.jsonl``.

A row says who called which model, how big and how costly the call was, how long it took and
how it ended. It never holds message content or keys: the prompt is represented only by its
fingerprint (sha256 of the canonical JSON of the messages), enough to tell two calls apart or
match a call to a transcript without storing the transcript twice — and its risk level.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from studyhall.adapters.errors import store_error
from studyhall.adapters.store.atomic import ensure_dir, write_all

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def prompt_fingerprint(messages: Sequence[dict[str, Any]]) -> str:
    """sha256 of the messages' canonical JSON (sorted keys, no whitespace, UTF-8).

    Total: it runs on every model call, so text no codec accepts (a lone surrogate, from bytes
    that were not UTF-8) still hashes — kept as its code point (``surrogatepass``)."""
    canonical = json.dumps(
        list(messages), sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str
    )
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class AuditRow:
    time: str  # ISO 8601, UTC
    role: str
    model: str
    provider: str | None
    prompt_sha256: str
    messages: int  # how many messages were sent (a count, never their content)
    tools: int
    input_tokens: int | None
    output_tokens: int | None
    cost_usd: float | None  # None when unknown: never a made-up zero
    latency_ms: float
    outcome: str  # "ok", "cancelled", or the error kind ("auth", "rate_limit", ...)
    attempts: int
    scripted: bool = False
    # The guardrails' rating of the call: "low", or "+"-joined "pii-scrubbed" (personal data
    # was replaced by placeholders), "pii-sent" (personal data went as written: the learner
    # asked, or scrubbing is off for a local server), "material-included" (imported material,
    # delimited as data, was in the prompt). None: the call bypassed the guardrails.
    risk: str | None = None


class JsonlAuditLog:
    """Append-only, fsynced per row; a torn last line from a crash is fenced off by a newline."""

    def __init__(self, path: Path) -> None:
        self._path = Path(path)
        self._lock = threading.Lock()

    @property
    def path(self) -> Path:
        return self._path

    def append(self, row: AuditRow) -> None:
        line = json.dumps(asdict(row), ensure_ascii=False, separators=(",", ":")) + "\n"
        with self._lock:
            try:
                ensure_dir(self._path.parent)
                # A lone surrogate (in a model id typed with bad bytes) becomes its JSON
                # escape, "\udcff": the row stays valid UTF-8 and reads back the same.
                data = line.encode("utf-8", "backslashreplace")
                if not self._ends_with_newline():
                    data = b"\n" + data  # never glue a row onto a half-written one
                fd = os.open(self._path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | _CLOEXEC, 0o600)
                try:
                    write_all(fd, data)
                    os.fsync(fd)
                finally:
                    os.close(fd)
            except OSError as e:
                raise store_error(f"append to the audit log {self._path}", e) from e

    def rows(self) -> list[dict[str, Any]]:
        """Every readable row, oldest first; torn or foreign lines are skipped."""
        try:
            text = self._path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return []
        except OSError as e:
            raise store_error(f"read the audit log {self._path}", e, write=False) from e
        out: list[dict[str, Any]] = []
        for line in text.splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(row, dict):
                out.append(row)
        return out

    def _ends_with_newline(self) -> bool:
        try:
            with open(self._path, "rb") as f:
                if f.seek(0, os.SEEK_END) == 0:
                    return True
                f.seek(-1, os.SEEK_END)
                return f.read(1) == b"\n"
        except FileNotFoundError:
            return True
