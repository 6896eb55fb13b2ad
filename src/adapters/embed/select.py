"""``SettingsEmbedder``: the ``Embedder`` the settings ask for, chosen at every call.

``Settings.embedding`` unset means the bundled MiniLM (offline, no key); set, a litellm model.
Choosing per call lets the learner switch in Settings without a restart; the embedding cache is
keyed by model, so vectors of two models never mix.
"""

from __future__ import annotations

from collections.abc import Sequence

from studyhall.adapters.embed.litellm_embedder import LitellmEmbedder
from studyhall.adapters.embed.minilm import MiniLMEmbedder
from studyhall.core.contracts.search import VectorLike
from studyhall.core.contracts.settings import RoleModel
from studyhall.core.ports.models import Embedder
from studyhall.core.ports.storage import SecretStore, SettingsStore


class SettingsEmbedder:
    def __init__(
        self,
        settings_store: SettingsStore,
        secret_store: SecretStore,
        *,
        local: MiniLMEmbedder | None = None,
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

    async def embed(self, texts: Sequence[str]) -> Sequence[VectorLike]:
        return await self.current().embed(texts)
