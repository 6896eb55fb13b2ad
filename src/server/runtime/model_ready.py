"""Whether a role's model plainly cannot answer, told without calling it.

A call would import litellm (≈5 s) only to learn that no key is saved, so the app asks here
first. One rule for every place that needs it: the notes import's model-free fallback, the
cluster labeler's term labels, and the Settings screen's "keys still needed". It mirrors how the
litellm adapter finds a key (``adapters/llm/call_options.key_name``): a model served on the
learner's machine needs none; a hosted id on a custom server is keyed by the server's address
(and is tried without a key); anything else by its provider. When only a call can tell (an id
without a provider prefix, a store that cannot be read), the model counts as usable.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping

from studyhall.core.contracts.settings import LOCAL_PROVIDERS, ModelRole, RoleModel
from studyhall.core.errors import StudyhallError
from studyhall.server.services import Services


def provider_of(model: str) -> str | None:
    """The provider prefix of a litellm model id (``openai/gpt-4.1-mini`` → ``openai``)."""
    prefix, sep, _ = model.partition("/")
    return prefix.lower() if sep else None


def key_name(role: RoleModel) -> str | None:
    """The secret-store name a role's key is saved under; None when it needs none (a local
    server) or the provider is unknown without litellm (an id with no prefix)."""
    provider = provider_of(role.model)
    if provider in LOCAL_PROVIDERS:
        return None
    if role.api_base:
        return role.api_base  # a hosted id on a custom server: keyed by the address
    return provider


def _squash(name: str) -> str:
    # "together_ai" and TOGETHERAI_API_KEY, "xai" and XAI_API_KEY name the same provider.
    return name.replace("_", "").replace("-", "").lower()


def env_key_providers(environ: Mapping[str, str] | None = None) -> set[str]:
    """Providers with a ``<PROVIDER>_API_KEY`` in the environment (squashed names)."""
    env = os.environ if environ is None else environ
    return {_squash(k[: -len("_API_KEY")]) for k, v in env.items() if k.endswith("_API_KEY") and v}


def missing_key(role: RoleModel, saved: Collection[str], env_providers: Collection[str]) -> str | None:
    """The key a role's model still lacks (its secret-store name), or None."""
    name = key_name(role)
    if name is None or name in saved or _squash(name) in env_providers:
        return None
    return name


def no_model_reason(services: Services, role_name: ModelRole = "extractor") -> str | None:
    """Why no model can answer a role, when that is plain without calling one; None when a
    model may answer (a script, a local server, a custom server, the provider's key saved or
    in the environment)."""
    if services.chat_model is None:
        return f"No model is wired for the {role_name}."
    if services.config.script_path is not None:
        return None
    try:
        role = services.settings_store.load().model_for(role_name)
        if role.api_base and provider_of(role.model) not in LOCAL_PROVIDERS:
            return None  # a custom server may take no key: the adapter tries without one
        lacking = missing_key(role, services.secret_store.names(), env_key_providers())
    except StudyhallError:
        return None  # let the model call say what is wrong
    if lacking is None:
        return None
    who = role_name.replace("_", " ")
    if role_name == "extractor":
        done = "so the model-free extractor built the graph from the notes' structure"
    else:
        done = f"so the {who} is not called"
    return (
        f"No {lacking} key is saved for the {who}'s model ({role.model}), {done}. Add one in "
        "Settings → Models, or pick a local model."
    )
