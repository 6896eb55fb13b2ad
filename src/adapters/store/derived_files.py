"""The graph's whole-file side stores: positions, clusters and embeddings (guards + encodings).

These hold derived data (layout, cluster partition, vectors) that can always be recomputed, so
reading is tolerant: an unreadable file or entry is skipped and logged, never guessed at.
Writing is strict: anything that would not read back is refused with ``StoreError``.
Vectors are stored as little-endian float32, base64 per node — compact and fast to load — and
held as float32 numpy rows.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from studyhall.adapters.store.shape_guard import checked
from studyhall.core.contracts.graph import Cluster, Position
from studyhall.core.errors import StoreError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

log = logging.getLogger(__name__)

VERSION = 1
# Node id -> float32 vector: rows of one matrix (see ``decode_vectors``), never float tuples.
Vectors = dict[str, "npt.NDArray[np.float32]"]


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


def _numbers(vec: Any) -> Any:
    """``vec`` as a 1-D numeric numpy array, or None (strings, bools, objects, nesting)."""
    import numpy as np  # here: the app's start-up reads stores but never saves vectors

    if isinstance(vec, np.ndarray):  # the hot path: arrays are already typed
        raw = vec
    elif isinstance(vec, (str, bytes)):
        return None
    else:
        try:
            raw = np.asarray(vec)
        except (TypeError, ValueError):
            return None
        # A plain list turns True into 1.0 silently (lists only come from callers and tests).
        if raw.dtype.kind == "f" and any(isinstance(x, bool) for x in vec):
            return None
    return raw if raw.ndim == 1 and raw.dtype.kind in "iuf" else None


def check_vectors(model: str, vectors: Mapping[str, Any]) -> Vectors:
    """Finite numbers, one dimension for every node; returned as float32 rows of one matrix (as
    stored): one numpy check over all of them, never one Python check per number."""
    what = f"embeddings for {model!r}"
    if not isinstance(model, str) or not model.strip():
        raise StoreError("Refused to save embeddings: the model id is empty. Nothing was written.")
    if not isinstance(vectors, Mapping):
        raise StoreError(f"Refused to save {what}: expected a mapping of node id to vector.")
    import numpy as np

    keys: list[str] = []
    rows: list[Any] = []
    for node, vec in vectors.items():
        _key(node, what)
        raw = _numbers(vec)
        if raw is None:
            raise StoreError(
                f"Refused to save {what}: the vector of {node!r} is not a list of numbers. "
                "Nothing was written."
            )
        if not raw.size:
            raise StoreError(
                f"Refused to save {what}: the vector of {node!r} is empty. Nothing was written."
            )
        if rows and len(raw) != len(rows[0]):
            raise StoreError(
                f"Refused to save {what}: the vector of {node!r} has {len(raw)} dimensions, "
                f"the others {len(rows[0])}. Nothing was written."
            )
        keys.append(node)
        rows.append(raw)
    if not rows:
        return {}
    with np.errstate(over="ignore"):  # beyond float32: becomes inf, refused just below
        matrix = np.stack(rows).astype(np.float32, copy=False)
    finite = np.isfinite(matrix).all(axis=1)
    if not bool(finite.all()):
        node = keys[int(np.flatnonzero(~finite)[0])]
        raise StoreError(
            f"Refused to save {what}: the vector of {node!r} holds a value that is not a finite "
            "float32 number. Nothing was written."
        )
    return dict(zip(keys, matrix))


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


def encode_vectors(model: str, vectors: Vectors) -> bytes:
    import numpy as np

    dim = len(next(iter(vectors.values()))) if vectors else 0
    enc = {k: base64.b64encode(np.asarray(v, dtype="<f4").tobytes()).decode("ascii")
           for k, v in vectors.items()}
    return _dumps({"version": VERSION, "model": model, "dim": dim, "dtype": "<f4", "vectors": enc})


def decode_vectors(model: str, raw: bytes, label: str) -> Vectors:
    """Every readable vector, as float32 rows of one matrix (per node: one base64 decode, no
    Python float objects); unreadable or non-finite ones are skipped and counted."""
    doc = _load_doc(raw, label)
    if doc is None:
        return {}
    if doc.get("model") != model or doc.get("dtype") != "<f4":
        log.warning("%s does not hold %r float32 vectors; ignoring it", label, model)
        return {}
    items, dim = doc.get("vectors"), doc.get("dim")
    if not isinstance(items, dict) or not isinstance(dim, int) or dim <= 0:
        return {}
    import numpy as np  # here: read on the first search or upkeep, not as the app starts

    width = dim * 4
    keys: list[str] = []
    packed: list[bytes] = []
    bad = 0
    for node, b64 in items.items():
        try:
            data = base64.b64decode(b64, validate=True)
        except (TypeError, ValueError, binascii.Error):
            data = b""
        if len(data) != width:
            bad += 1
            continue
        keys.append(node)
        packed.append(data)
    matrix = np.frombuffer(b"".join(packed), dtype="<f4").reshape(len(keys), dim)
    matrix = matrix.astype(np.float32)  # native order, writable: one copy for all the vectors
    finite = np.isfinite(matrix).all(axis=1)
    bad += int((~finite).sum())
    if bad:
        log.warning("%s: skipped %d unreadable vector(s)", label, bad)
    return {k: row for k, row, ok in zip(keys, matrix, finite) if ok}
