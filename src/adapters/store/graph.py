"""``JsonlGraphStore``: the graph's append-only ledgers and whole-file side stores under ``graph/``.

    propositions.jsonl edges.jsonl quiz_events.jsonl observations.jsonl identity.jsonl
    checkpoints.jsonl coverage/<source_id>.jsonl      (JsonlLedger: append + tolerant reads)
    positions.json clusters.json embeddings/<model>.json   (atomic whole-file writes)
    .fold-cache                                     (derived, disposable: fold_cache.py)

It persists and shape-guards only; merging, dedup and derivation are the core's business. Besides
the ``GraphStore`` port it offers ``GraphTails``: tail reads of the graph ledgers (only what was
appended since a mark) and the fold cache, so a long-lived reader folds a large graph once.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from studyhall.adapters.errors import translated
from studyhall.adapters.store import fold_cache
from studyhall.adapters.store.atomic import atomic_write_bytes, sweep_temp_files
from studyhall.adapters.store.derived_files import (
    Vectors,
    check_clusters,
    check_positions,
    check_vectors,
    decode_clusters,
    decode_positions,
    decode_vectors,
    encode_clusters,
    encode_positions,
    encode_vectors,
)
from studyhall.adapters.store.fold_cache import GraphMarks
from studyhall.adapters.store.folder import KeyedLocks, Stamp, stamp_of
from studyhall.adapters.store.ledger import JsonlLedger
from studyhall.adapters.store.ledger_methods import GraphLedgerMethods
from studyhall.adapters.store.line_folder import RecordCheck
from studyhall.adapters.store.shape_guard import file_stem
from studyhall.adapters.store.tail import LedgerTail
from studyhall.core.contracts.graph import (
    Cluster,
    CoverageFingerprint,
    EdgeAdded,
    IdentityLinked,
    Position,
    PropositionCreated,
    QuizEvent,
    RunCheckpoint,
    UnderstandingObserved,
)
from studyhall.core.contracts.search import VectorLike
from studyhall.core.errors import StoreError

log = logging.getLogger(__name__)


def coverage_check(source_id: str) -> RecordCheck:
    """The extra rule of a coverage ledger: every record belongs to that ledger's source."""

    def check(record: BaseModel) -> str | None:
        found = getattr(record, "source_id", None)
        if found != source_id:
            return f"belongs to source {found!r}, not {source_id!r}"
        return None

    return check


class JsonlGraphStore(GraphLedgerMethods):
    def __init__(self, root: Path) -> None:
        self._root = Path(root)
        name = self._root.name
        self._propositions = JsonlLedger(
            self._root / "propositions.jsonl",
            PropositionCreated,
            label=f"{name}/propositions.jsonl",
        )
        self._edges = JsonlLedger(
            self._root / "edges.jsonl", EdgeAdded, label=f"{name}/edges.jsonl"
        )
        self._quiz = JsonlLedger(
            self._root / "quiz_events.jsonl", QuizEvent, label=f"{name}/quiz_events.jsonl"
        )
        self._observations = JsonlLedger(
            self._root / "observations.jsonl",
            UnderstandingObserved,
            label=f"{name}/observations.jsonl",
        )
        self._identity = JsonlLedger(
            self._root / "identity.jsonl", IdentityLinked, label=f"{name}/identity.jsonl"
        )
        self._checkpoints = JsonlLedger(
            self._root / "checkpoints.jsonl", RunCheckpoint, label=f"{name}/checkpoints.jsonl"
        )
        # The ledgers a tail reader feeds, in the order it feeds them (checkpoints first).
        self._tailed: dict[str, JsonlLedger[Any]] = {
            "checkpoints": self._checkpoints,
            "propositions": self._propositions,
            "identities": self._identity,
            "edges": self._edges,
            "quiz_events": self._quiz,
            "observations": self._observations,
        }
        self._coverage: dict[str, JsonlLedger[CoverageFingerprint]] = {}
        self._coverage_lock = threading.Lock()
        self._locks = KeyedLocks()  # one per side-store file
        self._vector_cache: dict[str, tuple[Stamp, Vectors]] = {}
        # Positions and clusters by file stamp: every graph read asks for them, and decoding
        # 100k positions took 1-3 s a read (issue 14: Home's first paint).
        self._side_cache: dict[str, tuple[Stamp, Any]] = {}
        self._swept: set[Path] = set()

    def __repr__(self) -> str:
        return f"JsonlGraphStore({str(self._root)!r})"

    # --- ledgers ---------------------------------------------------------------------------

    def _coverage_ledger(self, source_id: str) -> JsonlLedger[CoverageFingerprint]:
        with self._coverage_lock:
            ledger = self._coverage.get(source_id)
            if ledger is None:
                stem = file_stem(source_id)
                ledger = JsonlLedger(
                    self._root / "coverage" / f"{stem}.jsonl",
                    CoverageFingerprint,
                    label=f"{self._root.name}/coverage/{stem}.jsonl",
                    check=coverage_check(source_id),
                )
                self._coverage[source_id] = ledger
            return ledger

    # --- tail reads and the fold cache (GraphTails) -----------------------------------------

    def read_since(self, marks: object | None,
                   feed: Callable[[str, Sequence[Any]], None]) -> GraphMarks | None:
        if marks is not None and not isinstance(marks, GraphMarks):
            return None
        old = marks.ledgers if marks is not None else {}
        tails: list[tuple[str, LedgerTail[Any]]] = []
        try:
            # Every mark is checked before anything is fed: a refusal feeds nothing.
            for name, ledger in self._tailed.items():
                tail = ledger.tail(old.get(name))
                if tail is None:
                    return None
                tails.append((name, tail))
            with translated("read the graph ledgers", write=False):
                return GraphMarks({name: tail.feed(partial(feed, name)) for name, tail in tails})
        finally:
            for _, tail in tails:
                tail.close()

    def load_fold_cache(self) -> tuple[GraphMarks, Any] | None:
        path = self._root / fold_cache.NAME
        label = f"{self._root.name}/{path.name}"
        try:
            raw = self._read_side(path, "graph fold cache")
        except StoreError as e:  # derived data: a cache that cannot be read is a miss
            log.warning("%s cannot be read (%s); folding the graph from its ledgers", label, e)
            return None
        return None if raw is None else fold_cache.decode(raw, label)

    def save_fold_cache(self, marks: object, state: Any) -> None:
        if not isinstance(marks, GraphMarks):
            raise TypeError("save_fold_cache needs the marks read_since returned")
        self._write_side(self._root / fold_cache.NAME, fold_cache.encode(marks, state),
                         "graph fold cache")

    # --- side stores -----------------------------------------------------------------------

    def _read_side(self, path: Path, what: str) -> bytes | None:
        with translated(f"read the {what}", write=False):
            try:
                return path.read_bytes()
            except FileNotFoundError:
                return None

    def _write_side(self, path: Path, data: bytes, what: str) -> None:
        with self._locks.hold(str(path)), translated(f"save the {what}"):
            if path.parent not in self._swept:
                sweep_temp_files(path.parent)
                self._swept.add(path.parent)
            atomic_write_bytes(path, data)

    def _read_decoded(self, name: str, what: str, decode: Callable[[bytes, str], Any]) -> Any:
        """A side file decoded, or None when there is none; cached until its stamp changes."""
        path = self._root / name
        with translated(f"read the {what}", write=False):
            try:
                stamp = stamp_of(os.stat(path))
            except FileNotFoundError:
                return None
        hit = self._side_cache.get(name)
        if hit is not None and hit[0] == stamp:
            return hit[1]
        raw = self._read_side(path, what)
        value = None if raw is None else decode(raw, str(path))
        self._side_cache[name] = (stamp, value)
        return value

    def positions(self) -> dict[str, Position]:
        got = self._read_decoded("positions.json", "graph positions", decode_positions)
        return {} if got is None else dict(got)  # a copy: callers may change theirs

    def save_positions(self, positions: Mapping[str, Position]) -> None:
        fresh = check_positions(positions)
        self._write_side(self._root / "positions.json", encode_positions(fresh), "graph positions")
        self._side_cache.pop("positions.json", None)

    def _vectors_path(self, model: str) -> Path:
        return self._root / "embeddings" / f"{file_stem(model)}.json"

    def embeddings(self, model: str) -> Vectors:
        path = self._vectors_path(model)
        with translated(f"read the {model} embeddings", write=False):
            try:
                stamp = stamp_of(os.stat(path))
            except FileNotFoundError:
                return {}
        hit = self._vector_cache.get(model)
        if hit is not None and hit[0] == stamp:
            return dict(hit[1])
        raw = self._read_side(path, f"{model} embeddings")
        vectors = {} if raw is None else decode_vectors(model, raw, str(path))
        self._vector_cache[model] = (stamp, vectors)
        return dict(vectors)

    def save_embeddings(self, model: str, vectors: Mapping[str, VectorLike]) -> None:
        fresh = check_vectors(model, vectors)
        path = self._vectors_path(model)
        self._write_side(path, encode_vectors(model, fresh), f"{model} embeddings")
        self._vector_cache.pop(model, None)

    def clusters(self) -> list[Cluster]:
        got = self._read_decoded("clusters.json", "graph clusters", decode_clusters)
        return [] if got is None else list(got)

    def save_clusters(self, clusters: Sequence[Cluster]) -> None:
        fresh = check_clusters(clusters)
        self._write_side(self._root / "clusters.json", encode_clusters(fresh), "graph clusters")
        self._side_cache.pop("clusters.json", None)
