"""The graph's whole-file side stores: positions, clusters and embeddings (guards + encodings).

These hold derived data (layout, cluster partition, vectors) that can always be recomputed, so
reading is tolerant: an unreadable file or entry is skipped and logged, never guessed at.
Writing is strict: anything that would not read back is refused with ``StoreError``.
Vectors are stored as little-endian float32, base64 per node — compact and fast to load.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import math
import sys
from array import array
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError
from studyhall.adapters.store.shape_guard import checked
from studyhall.core.contracts.graph import Cluster, Position
from studyhall.core.errors import StoreError

log = logging.getLogger(__name__)

VERSION = 1
Vectors = dict[str, tuple[float, ...]]


# --- guards (shared with the in-memory store) ----------------------------------------------


def _key(value: object, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise StoreError(
            f"Refused to save {what}: node ids must be non-empty strings. Nothing was written."
        )
    return value


def check_positions(positions: Mapping[str, Position]) -> dict[str, Position]:
    if not isinstance(positions, Mapping):
        raise StoreError("Refused to save positions: expected a mapping of node id to Position.")
    return {
        _key(k, "positions"): checked(Position, v, f"the position of node {k!r}")[0]
        for k, v in positions.items()
    }


def check_clusters(clusters: Sequence[Cluster]) -> list[Cluster]:
    return [checked(Cluster, c, f"cluster {getattr(c, 'id', '?')}")[0] for c in clusters]


def check_vectors(model: str, vectors: Mapping[str, Sequence[float]]) -> Vectors:
    """Finite numbers, one dimension for every node; returned rounded to float32 (as stored)."""
    what = f"embeddings for {model!r}"
    if not isinstance(model, str) or not model.strip():
        raise StoreError("Refused to save embeddings: the model id is empty. Nothing was written.")
    if not isinstance(vectors, Mapping):
        raise StoreError(f"Refused to save {what}: expected a mapping of node id to vector.")
    import numpy as np  # here: the app's start-up reads stores but never saves vectors

    out: Vectors = {}
    dim: int | None = None
    for node, vec in vectors.items():
        _key(node, what)
        # One numpy check per vector, not one Python check per number: "iu" integers and "f"
        # floats pass; bools, strings and objects are refused.
        try:
            raw = None if isinstance(vec, (str, bytes)) else np.asarray(vec)
            # A plain list turns True into 1.0 silently; an array is already typed.
            if raw is not None and not isinstance(vec, np.ndarray) and any(
                isinstance(x, bool) for x in vec
            ):
                raw = None
        except (TypeError, ValueError):
            raw = None
        if raw is None or raw.ndim != 1 or raw.dtype.kind not in "iuf":
            raise StoreError(
                f"Refused to save {what}: the vector of {node!r} is not a list of numbers. "
                "Nothing was written."
            )
        with np.errstate(over="ignore"):  # beyond float32: becomes inf, refused just below
            packed = raw.astype(np.float32)
        if not packed.size or not bool(np.isfinite(packed).all()):
            raise StoreError(
                f"Refused to save {what}: the vector of {node!r} is empty or holds a value that "
                "is not a finite float32 number. Nothing was written."
            )
        values: tuple[float, ...] = tuple(packed.tolist())
        if dim is None:
            dim = len(values)
        elif len(values) != dim:
            raise StoreError(
                f"Refused to save {what}: the vector of {node!r} has {len(values)} dimensions, "
                f"the others {dim}. Nothing was written."
            )
        out[node] = values
    return out


# --- encodings ---------------------------------------------------------------------------


def _dumps(doc: dict[str, Any]) -> bytes:
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _load_doc(raw: bytes, label: str) -> dict[str, Any] | None:
    try:
        doc = json.loads(raw)
    except ValueError as e:
        log.warning("%s is not valid JSON (%s); ignoring it until it is saved again", label, e)
        return None
    if not isinstance(doc, dict) or doc.get("version") != VERSION:
        log.warning("%s has an unknown shape; ignoring it until it is saved again", label)
        return None
    return doc


def encode_positions(positions: Mapping[str, Position]) -> bytes:
    return _dumps(
        {"version": VERSION, "positions": {k: p.model_dump() for k, p in positions.items()}}
    )


def decode_positions(raw: bytes, label: str) -> dict[str, Position]:
    doc = _load_doc(raw, label)
    items = doc.get("positions") if doc else None
    if not isinstance(items, dict):
        return {}
    out: dict[str, Position] = {}
    bad = 0
    for k, v in items.items():
        try:
            p = Position.model_validate(v)
        except ValidationError:
            bad += 1
            continue
        if math.isfinite(p.x) and math.isfinite(p.y):
            out[k] = p
        else:
            bad += 1
    if bad:
        log.warning("%s: skipped %d unreadable position(s)", label, bad)
    return out


def encode_clusters(clusters: Sequence[Cluster]) -> bytes:
    return _dumps({"version": VERSION, "clusters": [c.model_dump(mode="json") for c in clusters]})


def decode_clusters(raw: bytes, label: str) -> list[Cluster]:
    doc = _load_doc(raw, label)
    items = doc.get("clusters") if doc else None
    if not isinstance(items, list):
        return []
    out: list[Cluster] = []
    for item in items:
        try:
            out.append(Cluster.model_validate(item))
        except ValidationError:
            log.warning("%s: skipped an unreadable cluster", label)
    return out


def _to_le(packed: array[float]) -> bytes:
    if sys.byteorder != "little":
        packed = array("f", packed)
        packed.byteswap()
    return packed.tobytes()


def encode_vectors(model: str, vectors: Vectors) -> bytes:
    dim = len(next(iter(vectors.values()))) if vectors else 0
    enc = {k: base64.b64encode(_to_le(array("f", v))).decode("ascii") for k, v in vectors.items()}
    return _dumps({"version": VERSION, "model": model, "dim": dim, "dtype": "<f4", "vectors": enc})


def decode_vectors(model: str, raw: bytes, label: str) -> Vectors:
    doc = _load_doc(raw, label)
    if doc is None:
        return {}
    if doc.get("model") != model or doc.get("dtype") != "<f4":
        log.warning("%s does not hold %r float32 vectors; ignoring it", label, model)
        return {}
    items, dim = doc.get("vectors"), doc.get("dim")
    if not isinstance(items, dict) or not isinstance(dim, int):
        return {}
    out: Vectors = {}
    bad = 0
    for node, b64 in items.items():
        try:
            packed = array("f")
            packed.frombytes(base64.b64decode(b64, validate=True))
        except (TypeError, ValueError, binascii.Error):
            bad += 1
            continue
        if sys.byteorder != "little":
            packed.byteswap()
        values = tuple(packed)
        if len(values) != dim or not all(math.isfinite(x) for x in values):
            bad += 1
            continue
        out[node] = values
    if bad:
        log.warning("%s: skipped %d unreadable vector(s)", label, bad)
    return out
