"""On-disk form of the search index, one pair of files per source under ``index/sources/``:
``<key>.npy`` (float32 chunk vectors), then ``<key>.json`` (chunks, content hash, model id and
the vectors' sha256) — the JSON is written last, atomically, and is the commit point. A kill
mid-write leaves the old pair, or a pair whose hashes disagree, which the next load drops (that
source then re-indexes on its next import); a killed writer's temp files are removed.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from studyhall.core.contracts.search import Chunk
from studyhall.core.errors import StoreError

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger(__name__)
FORMAT = 1

Loaded = tuple[list[Chunk], str, "np.ndarray", str]  # chunks, content hash, vectors, model id


def file_key(source_id: str) -> str:
    # Source ids are ours, but never trust them as file names.
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in source_id)[:80]
    return f"{safe}-{hashlib.sha1(source_id.encode()).hexdigest()[:10]}"


def load_all(folder: Path) -> tuple[dict[str, Loaded], list[str]]:
    """Every readable source, and the names of the files that were dropped."""
    found: dict[str, Loaded] = {}
    dropped: list[str] = []
    if not folder.is_dir():
        return found, dropped
    import numpy as np  # imported where used: the app imports this module as it starts

    for stray in folder.glob(".*.tmp"):
        stray.unlink(missing_ok=True)
    for meta_path in sorted(folder.glob("*.json")):
        try:
            meta = json.loads(meta_path.read_text("utf-8"))
            vectors = np.load(meta_path.with_suffix(".npy"), allow_pickle=False)
            chunks = [_chunk(c) for c in meta["chunks"]]
            if meta.get("format") != FORMAT or len(chunks) != len(vectors) or (
                hashlib.sha256(vectors.tobytes()).hexdigest() != meta["vectors_sha256"]
            ):
                raise ValueError("vectors do not match the chunks")
            found[meta["source_id"]] = (chunks, meta["content_hash"], vectors.astype(np.float32), meta["model_id"])
        except (OSError, ValueError, KeyError, TypeError) as e:
            log.warning("search index: dropping %s (%s); its source re-indexes on import", meta_path.name, e)
            dropped.append(meta_path.name)
    return found, dropped


def _chunk(row: dict[str, Any]) -> Chunk:
    # JSON has lists where the record has tuples; ``cues`` is missing from an older index.
    cues = tuple((int(at), float(start)) for at, start in row.get("cues", ()))
    return Chunk(**{**row, "sentences": tuple(row["sentences"]), "cues": cues})


def save(folder: Path, source_id: str, chunks: list[Chunk], content_hash: str,
         vectors: np.ndarray, model_id: str) -> None:
    import numpy as np  # imported where used: the app imports this module as it starts

    meta = {
        "format": FORMAT, "source_id": source_id, "content_hash": content_hash, "model_id": model_id,
        "vectors_sha256": hashlib.sha256(vectors.tobytes()).hexdigest(),
        "chunks": [asdict(c) for c in chunks],
    }
    key = file_key(source_id)
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        _atomic(folder / f"{key}.npy", lambda fh: np.save(fh, vectors, allow_pickle=False))
        _atomic(folder / f"{key}.json", lambda fh: fh.write(json.dumps(meta).encode()))
    except OSError as e:
        raise StoreError(f"Could not write the search index under {folder} ({e.strerror}). "
                         "Check free disk space and permissions.") from e


def delete(folder: Path, source_id: str) -> None:
    key = file_key(source_id)
    for suffix in (".json", ".npy"):  # the JSON first: it is the commit point
        try:
            (folder / f"{key}{suffix}").unlink()
        except FileNotFoundError:
            pass


def _atomic(path: Path, write: Callable[[IO[bytes]], Any]) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        write(fh)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
