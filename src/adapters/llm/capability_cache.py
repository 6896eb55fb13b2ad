"""``CapabilityCache``: probed model capabilities, one JSON file in the data folder, keyed by
``<server address>|<model id>``. Written whole (temp file + rename), so a crash leaves the old
file; a file that does not parse is treated as empty and replaced by the next answer."""

from __future__ import annotations

import json
import os
import threading
from dataclasses import asdict
from pathlib import Path
from typing import Any

from studyhall.core.contracts.model_capabilities import ModelCapabilities

VERSION = 1


class CapabilityCache:
    def __init__(self, path: Path) -> None:
        self._path = path
        self._lock = threading.Lock()

    def _read(self) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads(self._path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        entries = data.get("entries") if isinstance(data, dict) else None
        if not isinstance(entries, dict) or data.get("version") != VERSION:
            return {}
        return {k: v for k, v in entries.items() if isinstance(v, dict)}

    def _write(self, entries: dict[str, dict[str, Any]]) -> None:
        self._path.parent.mkdir(parents=True, exist_ok=True)
        temp = self._path.with_suffix(".tmp")
        temp.write_text(json.dumps({"version": VERSION, "entries": entries}, indent=1),
                        encoding="utf-8")
        os.replace(temp, self._path)

    def get(self, key: str) -> ModelCapabilities | None:
        with self._lock:
            entry = self._read().get(key)
        if entry is None:
            return None
        try:
            return _from_entry(entry)
        except (TypeError, ValueError):
            return None  # a hand-edited entry: asked again

    def put(self, key: str, caps: ModelCapabilities) -> None:
        with self._lock:
            entries = self._read()
            entries[key] = asdict(caps)
            self._write(entries)

    def keep_only(self, keys: set[str]) -> None:
        with self._lock:
            entries = self._read()
            kept = {k: v for k, v in entries.items() if k in keys}
            if kept != entries:
                self._write(kept)


def _from_entry(entry: dict[str, Any]) -> ModelCapabilities:
    tools, schema, context, note = (entry.get("tools"), entry.get("json_schema"),
                                    entry.get("context_tokens"), entry.get("note", ""))
    if not all(v is None or isinstance(v, bool) for v in (tools, schema)):
        raise ValueError("tools/json_schema are true, false or null")
    if context is not None and (not isinstance(context, int) or isinstance(context, bool)):
        raise ValueError("context_tokens is a whole number")
    if not isinstance(note, str):
        raise TypeError("note is text")
    return ModelCapabilities(tools=tools, json_schema=schema, context_tokens=context, note=note)
