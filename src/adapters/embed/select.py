"""``SettingsEmbedder``: the ``Embedder`` the settings ask for, chosen at every call.

``Settings.embedding`` unset means the bundled MiniLM (offline, no key); set, a litellm model.
Choosing per call lets the learner switch in Settings without a restart; the embedding cache is
keyed by model, so vectors of two models never mix.

The bundled MiniLM runs on ONNX Runtime with int8 weights when onnxruntime is installed and a
folder for the exported model is given (about twice as fast on CPU, same retrieval quality);
``STUDYHALL_ENCODER=torch`` (or ``onnx``) picks the backend explicitly.
"""

from __future__ import annotations

import importlib.util
import logging
import os
from collections.abc import Sequence
from pathlib import Path

from studyhall.adapters.embed.litellm_embedder import LitellmEmbedder
from studyhall.adapters.embed.minilm import MiniLMEmbedder
from studyhall.adapters.embed.onnx_minilm import OnnxMiniLMEmbedder
from studyhall.core.contracts.search import Matrix
from studyhall.core.contracts.settings import RoleModel
from studyhall.core.ports.models import Embedder
from studyhall.core.ports.storage import SecretStore, SettingsStore

log = logging.getLogger("studyhall.embed")
LocalEmbedder = MiniLMEmbedder | OnnxMiniLMEmbedder
ENCODER_ENV = "STUDYHALL_ENCODER"


def local_embedder(models_dir: Path | None = None) -> LocalEmbedder:
    """The bundled MiniLM on the backend ``STUDYHALL_ENCODER`` names (``onnx`` or ``torch``);
    by default ONNX Runtime when it is installed and ``models_dir`` can hold the export."""
    choice = os.environ.get(ENCODER_ENV, "auto").strip().lower() or "auto"
    if choice not in ("auto", "onnx", "torch"):
        log.warning("%s=%r is not an encoder (onnx or torch); choosing one", ENCODER_ENV, choice)
        choice = "auto"
    if choice == "torch":
        return MiniLMEmbedder()
    # find_spec, not import: onnxruntime is loaded on the first embed, off the start-up path.
    if choice == "auto" and (models_dir is None or importlib.util.find_spec("onnxruntime") is None):
        return MiniLMEmbedder()
    if models_dir is None:
        log.warning("%s=onnx needs a folder for the exported model; using torch", ENCODER_ENV)
        return MiniLMEmbedder()
    return OnnxMiniLMEmbedder(models_dir)


class SettingsEmbedder:
    def __init__(
        self,
        settings_store: SettingsStore,
        secret_store: SecretStore,
        *,
        local: LocalEmbedder | None = None,
        allow_network: bool = True,
    ) -> None:
        self._settings = settings_store
        self._secrets = secret_store
        self._local = local or MiniLMEmbedder()
        self._allow_network = allow_network
        self._remote: tuple[RoleModel, LitellmEmbedder] | None = None

    def current(self) -> Embedder:
        choice = self._settings.load().embedding
        if choice is None:
            return self._local
        if self._remote is None or self._remote[0] != choice:
            self._remote = (
                choice,
                LitellmEmbedder(choice, self._secrets, allow_network=self._allow_network),
            )
        return self._remote[1]

    @property
    def model_id(self) -> str:
        return self.current().model_id

    async def embed(self, texts: Sequence[str]) -> Matrix:
        return await self.current().embed(texts)

    async def aclose(self) -> None:
        """The app's shutdown step: the local encoder stops preparing its model."""
        await self._local.aclose()
