"""``JsonSourceStore``: every imported source in one index, ``sources/index.json`` (atomic writes).

File shape: ``{"version": 1, "sources": [Source, ...]}``. The parsed index is cached under the
file's stamp, so repeated reads cost one ``stat``.
"""

from __future__ import annotations

import functools
import json
import os
import threading
from collections.abc import Sequence
from pathlib import Path

from pydantic import TypeAdapter, ValidationError
from studyhall.adapters.errors import translated
from studyhall.adapters.store.atomic import atomic_write_bytes, sweep_temp_files
from studyhall.adapters.store.folder import Stamp, stamp_of
from studyhall.adapters.store.shape_guard import checked, describe_validation
from studyhall.adapters.store.shared_semantics import by_location
from studyhall.core.contracts.sources import Source
from studyhall.core.errors import NotFound, StoreError

INDEX_NAME = "index.json"
_VERSION = 1


@functools.cache
def _list_adapter() -> TypeAdapter[list[Source]]:
    return TypeAdapter(list[Source])  # built on first read, not at start-up


class JsonSourceStore:
    def __init__(self, root: Path) -> None:
        self._path = Path(root) / INDEX_NAME
        self._lock = threading.RLock()
        self._cache: tuple[Stamp, dict[str, Source]] | None = None
        self._swept = False

    def __repr__(self) -> str:
        return f"JsonSourceStore({str(self._path.parent)!r})"

    def save(self, source: Source) -> None:
        self.save_many([source])

    def save_many(self, sources: Sequence[Source]) -> None:
        fresh = [checked(Source, s, f"source {getattr(s, 'id', '?')}")[0] for s in sources]
        if not fresh:
            return
        with self._lock:
            index = dict(self._index())
            for s in fresh:
                index[s.id] = s
            self._write(index, f"save {len(fresh)} source(s)")

    def get(self, source_id: str) -> Source | None:
        with self._lock:
            return self._index().get(source_id)

    def list(self) -> list[Source]:
        with self._lock:
            return by_location(list(self._index().values()))

    def remove(self, source_id: str) -> None:
        with self._lock:
            index = dict(self._index())
            if index.pop(source_id, None) is None:
                raise NotFound(f"There is no imported source {source_id!r}.")
            self._write(index, f"remove source {source_id}")

    def _index(self) -> dict[str, Source]:
        with translated("read the sources index", write=False):
            try:
                info = os.stat(self._path)
            except FileNotFoundError:
                self._cache = None
                return {}
            stamp = stamp_of(info)
            if self._cache is not None and self._cache[0] == stamp:
                return self._cache[1]
            raw = self._path.read_bytes()
        index = {s.id: s for s in _parse_index(self._path, raw)}
        self._cache = (stamp, index)
        return index

    def _write(self, index: dict[str, Source], action: str) -> None:
        doc = {
            "version": _VERSION,
            "sources": [
                s.model_dump(mode="json", by_alias=True) for s in by_location(list(index.values()))
            ],
        }
        data = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        with translated(action):
            if not self._swept:
                sweep_temp_files(self._path.parent)
                self._swept = True
            atomic_write_bytes(self._path, data)
        try:
            self._cache = (stamp_of(os.stat(self._path)), index)
        except OSError:
            self._cache = None  # saved; the next read parses it again


def _parse_index(path: Path, raw: bytes) -> list[Source]:
    problem = "is not a sources index"
    try:
        doc = json.loads(raw)
        if isinstance(doc, dict) and doc.get("version") == _VERSION:
            return _list_adapter().validate_python(doc.get("sources"))
    except ValidationError as e:  # before ValueError: it is one
        problem = describe_validation(e, Source)
    except ValueError as e:  # JSONDecodeError, UnicodeDecodeError
        problem = f"is not valid JSON ({e})"
    raise StoreError(
        f"Could not read the sources index: {path} {problem}. Restore it from a "
        "backup, or move it aside and import your notes again."
    )
