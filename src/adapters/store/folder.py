"""``RecordFolder``: one JSON file per entity (``<root>/<id>.json``), written atomically.

Shared by the chat and job stores. Listing is incremental: each file's projection (a chat's
summary, a job) is cached under the file's (inode, size, mtime) stamp, so a listing re-parses
only files that changed. A damaged file is skipped from listings with a warning and reported by
``load`` as a ``StoreError`` naming the file — never silently dropped or guessed at.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Generic, TypeVar

from pydantic import BaseModel, ValidationError
from studyhall.adapters.errors import translated
from studyhall.adapters.store.atomic import atomic_write_bytes, sweep_temp_files
from studyhall.adapters.store.shape_guard import describe_validation, is_safe_id
from studyhall.core.errors import StoreError

log = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)
P = TypeVar("P")

Stamp = tuple[int, int, int]


class KeyedLocks:
    """One lock per key (a chat id, a file name), created on first use."""

    def __init__(self) -> None:
        self._master = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}

    @contextmanager
    def hold(self, key: str) -> Iterator[None]:
        with self._master:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            yield


def stamp_of(info: os.stat_result) -> Stamp:
    return (info.st_ino, info.st_size, info.st_mtime_ns)


class RecordFolder(Generic[M, P]):
    def __init__(self, root: Path, model: type[M], kind: str, project: Callable[[M], P]) -> None:
        self.root = Path(root)
        self._model = model
        self._kind = kind  # "chat", "job": how messages name an entity
        self._project = project
        self.locks = KeyedLocks()
        self._cache: dict[str, tuple[Stamp, P | None]] = {}
        self._cache_lock = threading.Lock()
        self._swept = False

    def path(self, entity_id: str) -> Path:
        return self.root / f"{entity_id}.json"

    def label(self, entity_id: str) -> str:
        return f"{self.root.name}/{entity_id}.json"

    def exists(self, entity_id: str) -> bool:
        return is_safe_id(entity_id) and self.path(entity_id).is_file()

    def load(self, entity_id: str) -> M | None:
        """The entity, ``None`` when there is none, ``StoreError`` when its file is damaged."""
        if not is_safe_id(entity_id):
            return None  # such an id can never have been saved
        with translated(f"read {self._kind} {entity_id}", write=False):
            try:
                raw = self.path(entity_id).read_bytes()
            except FileNotFoundError:
                return None
        return self._parse(entity_id, raw)

    def _parse(self, entity_id: str, raw: bytes) -> M:
        try:
            record = self._model.model_validate_json(raw)
        except ValidationError as e:
            problem = describe_validation(e, self._model)
        else:
            found = getattr(record, "id", None)
            if found == entity_id:
                return record
            # A copied or renamed file: saving it back would write one entity under another's name.
            problem = f"holds {self._kind} {found!r}, not {entity_id!r}"
        raise StoreError(
            f"Could not read {self._kind} {entity_id}: {self.label(entity_id)} {problem}. "
            f"Restore it from a backup or move it out of the folder; other {self._kind}s are "
            "unaffected."
        )

    def write(self, entity_id: str, data: bytes, record: M) -> None:
        """Replace the entity's file atomically (caller holds ``locks.hold(entity_id)``)."""
        with translated(f"save {self._kind} {entity_id}"):
            if not self._swept:
                sweep_temp_files(self.root)
                self._swept = True
            atomic_write_bytes(self.path(entity_id), data)
        try:
            stamp = stamp_of(os.stat(self.path(entity_id)))
        except OSError:
            return  # saved; the next listing simply re-reads it
        with self._cache_lock:
            self._cache[entity_id] = (stamp, self._project(record))

    def scan(self) -> list[P]:
        """The projection of every readable entity (damaged files are skipped and logged)."""
        out: list[P] = []
        seen: set[str] = set()
        with translated(f"list the {self._kind}s", write=False):
            try:
                entries = list(os.scandir(self.root))
            except FileNotFoundError:
                entries = []
            for entry in entries:
                name = entry.name
                if name.startswith(".") or not name.endswith(".json"):
                    continue
                entity_id = name[: -len(".json")]
                if not is_safe_id(entity_id):
                    continue
                try:
                    stamp = stamp_of(entry.stat())
                except FileNotFoundError:
                    continue  # removed while we listed
                seen.add(entity_id)
                item = self._cached(entity_id, stamp, entry.path)
                if item is not None:
                    out.append(item)
        with self._cache_lock:
            for gone in set(self._cache) - seen:
                del self._cache[gone]
        return out

    def _cached(self, entity_id: str, stamp: Stamp, path: str) -> P | None:
        with self._cache_lock:
            hit = self._cache.get(entity_id)
        if hit is not None and hit[0] == stamp:
            return hit[1]
        try:
            with open(path, "rb") as f:
                raw = f.read()
        except FileNotFoundError:
            return None
        try:
            item: P | None = self._project(self._parse(entity_id, raw))
        except StoreError as e:
            log.warning("%s", e)  # once per version of the damaged file (it is cached)
            item = None
        with self._cache_lock:
            self._cache[entity_id] = (stamp, item)
        return item
