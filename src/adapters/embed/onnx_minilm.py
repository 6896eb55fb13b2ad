"""``OnnxMiniLMEmbedder``: the bundled MiniLM run by ONNX Runtime with int8 weights.

About twice the texts per CPU-second of the torch encoder on note chunks (int8 weights, and
texts cut at the 128 word pieces MiniLM was trained on), with retrieval quality on
``eval/retrieval/v1`` at least the torch encoder's (figures: ``bench/import.py``). It needs
neither torch nor sentence-transformers at run time: the bundled tokenizer (``tokenizers``),
onnxruntime and numpy, all imported on the first ``embed``. The int8 file is exported from the
bundled weights on the first use of a data folder (``onnx_export``); nothing is downloaded.
Its vectors are not bit-identical to the torch encoder's (cosine > 0.97; int8 activations are
scaled per batch, so a text's vector also moves a little with its batch, cosine > 0.99), so it
has a model id of its own: the vector cache and the search index never mix the two.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studyhall.adapters.embed.minilm import (
    DIMENSIONS,
    MODEL_ID,
    EmbedderUnavailable,
    on_encoder_thread,
)
from studyhall.adapters.embed.onnx_export import (
    ExportControl,
    bundled_model_dir,
    export_path,
    exported_model,
)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

log = logging.getLogger("studyhall.embed")
ONNX_MODEL_ID = f"{MODEL_ID}@onnx-int8"
# Word pieces per text: the length MiniLM was trained on. Note chunks run to ~190; cutting them
# at 128 saves ~17% of the encoder's work and scored higher on eval/retrieval/v1 than 256
# (R@1 0.911 vs 0.903, MRR 0.945 vs 0.941, top-3 0.984 both, no false citation).
MAX_TOKENS = 128
# Texts per run, sorted by length so a run pads little. Small runs cost less per text here
# (texts/s on 2 cores, runs of 32: 263, 16: 305, 8: 325, 4: 323) and keep the runners busy.
BATCH = 8
WINDOW = 1024  # texts tokenized at a time
# Runs side by side, one thread each, rather than one run split over threads: MiniLM's ops are
# too small to split well (measured on 2 cores: 300 texts/s against 259, with 25% less CPU), and
# when other work takes a core a run just waits its turn, where a split run stalls every op on
# the slowest thread (196 texts/s against 118 beside a busy Python thread).
RUNNERS = max(1, min(4, os.cpu_count() or 1))

_lock = threading.Lock()
_loaded: dict[Path, tuple[Any, Any]] = {}  # cache dir -> (session, tokenizer), one per process
_runners = ThreadPoolExecutor(max_workers=RUNNERS, thread_name_prefix="onnx-run")


def _session(cache_dir: Path, exports: ExportControl) -> tuple[Any, Any]:
    """The process's session and tokenizer (blocking; exports the model on first use, in a
    child process ``exports`` can stop)."""
    with _lock:
        if _loaded:  # one model per process, whichever data folder asked first
            return next(iter(_loaded.values()))
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer

            model_dir = bundled_model_dir()
            path = exported_model(cache_dir, model_dir, exports)
            options = ort.SessionOptions()
            options.intra_op_num_threads = 1  # parallel runs instead (RUNNERS): see above
            options.inter_op_num_threads = 1
            session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
            tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
            tokenizer.enable_truncation(max_length=MAX_TOKENS)
            tokenizer.no_padding()
        except (ImportError, OSError, RuntimeError, ValueError) as e:
            raise EmbedderUnavailable(
                "The bundled MiniLM could not be prepared for ONNX Runtime "
                f"({type(e).__name__}: {e}). Set STUDYHALL_ENCODER=torch to use the torch "
                "encoder, or reinstall Studyhall (make run)."
            ) from e
        _loaded[cache_dir] = (session, tokenizer)
        return session, tokenizer


def encode(session: Any, tokenizer: Any, texts: Sequence[str],
           batch: int = BATCH) -> npt.NDArray[np.float32]:
    """Unit-length mean-pooled vectors, one row per text, in the order given. Texts are
    tokenized a window at a time (a tokenizer's encodings are heavy; the tokenizer is used by
    this thread only), sorted by token count within it so each run pads little; the window's
    runs go to the runner threads (ONNX Runtime sessions may run from many threads at once)."""
    import numpy as np

    out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
    for first in range(0, len(texts), WINDOW):
        encoded = [e.ids for e in tokenizer.encode_batch(list(texts[first : first + WINDOW]))]
        order = sorted(range(len(encoded)), key=lambda i: len(encoded[i]))
        runs = [order[start : start + batch] for start in range(0, len(order), batch)]
        pending = [_runners.submit(_run, session, [encoded[i] for i in rows]) for rows in runs]
        for rows, done in zip(runs, pending):
            out[[first + i for i in rows]] = done.result()
    return out


def _states(session: Any, token_ids: list[list[int]]) -> tuple[Any, Any]:
    """One padded run: the token states (texts x tokens x 384) and the mask."""
    import numpy as np

    width = max(len(ids) for ids in token_ids)
    ids = np.zeros((len(token_ids), width), dtype=np.int64)
    mask = np.zeros((len(token_ids), width), dtype=np.int64)
    for r, tokens in enumerate(token_ids):
        ids[r, : len(tokens)] = tokens
        mask[r, : len(tokens)] = 1
    states = session.run(None, {"input_ids": ids, "attention_mask": mask,
                                "token_type_ids": np.zeros_like(ids)})[0]
    return states, mask


def _run(session: Any, token_ids: list[list[int]]) -> npt.NDArray[np.float32]:
    import numpy as np

    states, mask = _states(session, token_ids)
    weights = mask[..., None].astype(np.float32)
    pooled = (states * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    unit: npt.NDArray[np.float32] = (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
    return unit


def token_vectors(session: Any, tokenizer: Any, texts: Sequence[str],
                  batch: int = BATCH) -> list[npt.NDArray[np.float32]]:
    """Each text's contextual token vectors, unit length, without [CLS]/[SEP] and tokens with
    no letter or digit (what late interaction matches word by word), in the order given."""
    import numpy as np

    encoded = tokenizer.encode_batch(list(texts))
    order = sorted(range(len(encoded)), key=lambda i: len(encoded[i].ids))
    runs = [order[start : start + batch] for start in range(0, len(order), batch)]
    pending = [_runners.submit(_states, session, [encoded[i].ids for i in rows]) for rows in runs]
    out: list[npt.NDArray[np.float32]] = [np.zeros((0, DIMENSIONS), np.float32)] * len(texts)
    for rows, done in zip(runs, pending):
        states, _ = done.result()
        for r, i in enumerate(rows):
            tokens = encoded[i].tokens
            keep = [t for t, name in enumerate(tokens)
                    if name not in _SPECIAL and any(ch.isalnum() for ch in name)]
            matrix = states[r, : len(tokens)]
            picked = matrix[keep] if keep else matrix
            norms = np.linalg.norm(picked, axis=1, keepdims=True)
            out[i] = (picked / np.maximum(norms, 1e-9)).astype(np.float32)
    return out


_SPECIAL = frozenset({"[CLS]", "[SEP]", "[PAD]"})
# Word pieces per text matched by late interaction: the whole passage the torch model would
# read (its max_seq_length), not the 128 the pooled vectors are cut at.
LATE_MAX_TOKENS = 256


@functools.cache
def _late_tokenizer() -> Any:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(bundled_model_dir() / "tokenizer.json"))
    tokenizer.enable_truncation(max_length=LATE_MAX_TOKENS)
    tokenizer.no_padding()
    return tokenizer


class OnnxMiniLMEmbedder:
    backend = "onnx-int8"

    def __init__(self, cache_dir: Path, batch_size: int = BATCH) -> None:
        self.cache_dir = cache_dir
        self.batch_size = batch_size
        self.exports = ExportControl()

    @property
    def model_id(self) -> str:
        return ONNX_MODEL_ID

    @property
    def loaded(self) -> bool:
        return bool(_loaded)

    @property
    def prepared(self) -> bool:
        """Loaded, or exported for this data folder (then loading takes a second)."""
        if _loaded:
            return True
        try:
            return export_path(self.cache_dir).is_file()
        except (ImportError, OSError):
            return True  # nothing to prepare ahead: the first embed says what is wrong

    def prepare_sync(self) -> None:
        """Export (once per data folder) and load the model now (blocking; a worker thread)."""
        _session(self.cache_dir, self.exports)

    def embed_sync(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """One float32 row per text: a single matrix, no per-float Python objects."""
        import numpy as np

        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        session, tokenizer = _session(self.cache_dir, self.exports)
        return encode(session, tokenizer, texts, self.batch_size)

    async def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """The work runs on the encoder's worker thread (one thread team for every encode)."""
        return await on_encoder_thread(self.embed_sync, list(texts))

    def tokens_sync(self, texts: Sequence[str]) -> list[npt.NDArray[np.float32]]:
        """Unit token vectors per text for the late-interaction reranker (blocking: call it on
        the encoder's thread, which owns the tokenizers)."""
        if not texts:
            return []
        session, _ = _session(self.cache_dir, self.exports)
        return token_vectors(session, _late_tokenizer(), texts, self.batch_size)

    async def aclose(self) -> None:
        """The app is stopping: a model export in flight is killed, not waited for (~10 s in
        torch), and none starts after this."""
        if stopped := self.exports.stop():
            log.info("[embed] stopped %d model export(s); the next start exports again", stopped)
