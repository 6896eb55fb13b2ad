"""``LitellmEmbedder``: node embeddings from a provider through litellm (bring your own key).

The model and api base come from ``Settings.embedding``; the key from the secret store under the
same name the chat adapter uses for that provider. Vectors are normalized to unit length (some
providers do not). With real calls off (tests) a call fails with ``ModelNetworkDisabled``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from studyhall.adapters.llm.call_options import NO_KEY_PLACEHOLDER, resolve_target
from studyhall.adapters.llm.litellm_errors import to_model_error
from studyhall.adapters.llm.litellm_model import load_litellm
from studyhall.core.contracts.api_keys import key_names, needs_key
from studyhall.core.contracts.settings import RoleModel
from studyhall.core.errors import ModelNetworkDisabled, ModelNotConfigured
from studyhall.core.ports.storage import SecretStore

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

ROLE = "embedding"
BATCH = 128


def _unit_rows(rows: list[Any]) -> npt.NDArray[np.float32]:
    """The provider's vectors as one float32 matrix of unit rows (a zero row stays zero)."""
    import numpy as np

    matrix = np.asarray(rows, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return (matrix / np.where(norms > 0, norms, 1.0)).astype(np.float32, copy=False)


class LitellmEmbedder:
    def __init__(
        self,
        role_model: RoleModel,
        secret_store: SecretStore,
        *,
        allow_network: bool = True,
        aembedding: Any = None,
    ) -> None:
        self._role_model = role_model
        self._secrets = secret_store
        self._allow_network = allow_network
        self._aembedding = aembedding  # a test seam; None means litellm.aembedding

    @property
    def model_id(self) -> str:
        return self._role_model.model

    async def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        import numpy as np

        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        litellm = await load_litellm()
        target, _bare = resolve_target(litellm, ROLE, self._role_model)
        if not self._allow_network and self._aembedding is None:
            raise ModelNetworkDisabled(
                f"Real model calls are off (STUDYHALL_TESTING=1), so embeddings cannot use "
                f"{target.model}. Remove \"embedding\" from settings.json to use the bundled local "
                f"model.",
                role=ROLE,
                provider=target.provider,
            )
        key: str | None = None
        for name in key_names(target.provider, target.api_base):  # the chat adapter's lookup
            key = key or await asyncio.to_thread(self._secrets.get, name)
        if not key and not target.local:
            if needs_key(target.provider, target.api_base):
                raise ModelNotConfigured(
                    f"No key for {target.provider} is saved, so embeddings with {target.model} "
                    "cannot run. Add the key in Settings → API keys, or remove \"embedding\" from "
                    "settings.json to use the bundled local model.",
                    role=ROLE,
                    provider=target.provider,
                )
            key = NO_KEY_PLACEHOLDER
        call = self._aembedding or litellm.aembedding
        out: list[npt.NDArray[np.float32]] = []
        for start in range(0, len(texts), BATCH):
            chunk = list(texts[start : start + BATCH])
            kwargs: dict[str, Any] = {"model": target.model, "input": chunk}
            if key:
                kwargs["api_key"] = key
            if self._role_model.api_base:
                kwargs["api_base"] = self._role_model.api_base
            try:
                response = await call(**kwargs)
            except Exception as exc:
                raise to_model_error(litellm, exc, target, secrets=(key,) if key else ()) from exc
            rows = sorted(response.data, key=lambda item: _get(item, "index", 0))
            if len(rows) != len(chunk):
                raise ModelNotConfigured(
                    f"{target.model} returned {len(rows)} embeddings for {len(chunk)} texts; "
                    "set another embedding model (\"embedding\" in settings.json).",
                    role=ROLE,
                )
            try:
                out.append(_unit_rows([_get(item, "embedding", []) for item in rows]))
            except (TypeError, ValueError) as exc:  # ragged rows or non-numbers
                raise ModelNotConfigured(
                    f"{target.model} returned vectors that are not lists of numbers of one "
                    "length; set another embedding model (\"embedding\" in settings.json).",
                    role=ROLE,
                ) from exc
        return np.concatenate(out) if len(out) > 1 else out[0]


def _get(item: Any, name: str, default: Any) -> Any:
    return item.get(name, default) if isinstance(item, dict) else getattr(item, name, default)
