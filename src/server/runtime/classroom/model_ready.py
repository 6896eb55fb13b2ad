"""Whether a role's model plainly cannot answer, told without calling it.

A call would import litellm (≈5 s) only to learn that no key is saved, so the app asks here
first: the notes import's model-free fallback, the cluster labeler's term labels and the
Settings screen's "keys still needed" all use ``missing_key``. Which models need a key, and the
name it is saved under, is the core's rule (``core.contracts.api_keys``) — the one the litellm
adapter sends keys by. When only a call can tell (an id without a provider prefix, a store that
cannot be read), the model counts as usable.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from typing import cast, get_args

from studyhall.core.contracts.api_keys import key_name, needs_key, provider_of
from studyhall.core.contracts.settings import ModelRole, RoleModel
from studyhall.core.errors import StudyhallError
from studyhall.core.library.sources.material_import import CAPTIONS_ACTION, TRANSCRIBER_ACTION
from studyhall.server.services import Services


def _squash(name: str) -> str:
    # "together_ai" and TOGETHERAI_API_KEY, "xai" and XAI_API_KEY name the same provider.
    return name.replace("_", "").replace("-", "").lower()


def env_key_names(environ: Mapping[str, str] | None = None) -> list[str]:
    """The ``<PROVIDER>_API_KEY`` variables set in the environment (names only, sorted)."""
    env = os.environ if environ is None else environ
    return sorted(k for k, v in env.items() if k.endswith("_API_KEY") and v)


def env_key_providers(environ: Mapping[str, str] | None = None) -> set[str]:
    """Providers with a ``<PROVIDER>_API_KEY`` in the environment (squashed names)."""
    return {_squash(k[: -len("_API_KEY")]) for k in env_key_names(environ)}


def missing_key(role: RoleModel, saved: Collection[str], env_providers: Collection[str]) -> str | None:
    """The key a role's model still lacks (its secret-store name), or None: it needs none (a
    local or custom server, an id only litellm can place), or its key is saved or in the
    environment."""
    provider = provider_of(role.model)
    if provider is None or not needs_key(provider, role.api_base):
        return None
    name = key_name(provider, role.api_base)
    if name in saved or _squash(name) in env_providers:
        return None
    return name


def transcriber_action(services: Services) -> str:
    """What a lecture waiting for transcription asks of the learner: captions when the chosen
    provider has no speech-to-text (a key would not help), else the transcriber's key."""
    try:
        off = services.settings_store.load().transcription_off
    except StudyhallError:
        off = None
    return CAPTIONS_ACTION if off else TRANSCRIBER_ACTION


def no_model_reason(services: Services, role_name: ModelRole = "extractor") -> str | None:
    """Why no model can answer a role, when that is plain without calling one; None when a
    model may answer (a script, a local server, a custom server, the provider's key saved or
    in the environment)."""
    if services.config.script_path is not None:
        return None
    if role_name == "transcriber":
        try:
            off = services.settings_store.load().transcription_off
        except StudyhallError:
            off = None
        if off:
            return off  # the chosen provider has no speech-to-text
    found = _lacking_key(services, role_name)
    if found is None:
        return None
    role, lacking = found
    if role_name == "extractor":
        # The first import's summary: in the learner's words, not the pipeline's.
        return (
            f"No {lacking} key is saved, so your notes were mapped from their own titles, "
            "headings and links; no model read them. To have a model find the ideas in them, "
            f"add the key in Settings → Where your models run (for {role.model}), or pick a "
            "model on your computer there."
        )
    who = role_name.replace("_", " ")
    return (
        f"No {lacking} key is saved for the {who}'s model ({role.model}), so the {who} is not "
        "called. Add one in Settings → Where your models run, or pick a model on your computer "
        "there."
    )


def _lacking_key(services: Services, role_name: ModelRole) -> tuple[RoleModel, str] | None:
    """The role's model and the key it lacks, when that is plain without a call; None when a
    model may answer (a script, no key needed, the key saved) or only a call can tell."""
    if services.config.script_path is not None:
        return None
    try:
        role = services.settings_store.load().model_for(role_name)
        lacking = missing_key(role, services.secret_store.names(), env_key_providers())
    except StudyhallError:
        return None  # let the model call say what is wrong
    return None if lacking is None else (role, lacking)


def no_key_for_extraction(services: Services) -> str | None:
    """Why a session cannot go into the graph yet, told before any call (a call would import
    litellm only to fail); None when the extractor's model may answer."""
    found = _lacking_key(services, "extractor")
    if found is None:
        return None
    role, lacking = found
    return (
        f"Add a key to put this session into your graph: a model reads it for what you showed, "
        f"and {role.model} needs a key for {lacking}. Open Settings to paste one, or pick a "
        "local model."
    )


def no_key_for_turn(services: Services, role_name: str) -> str | None:
    """What a learner reads when a session's agent has no usable key, told before any call
    (a call would spend 10–35 s importing litellm and asking the provider); None when a model
    may answer."""
    if role_name not in get_args(ModelRole):
        return None
    found = _lacking_key(services, cast(ModelRole, role_name))
    if found is None:
        return None
    role, lacking = found
    # The two session roles are one teacher to the learner ("prober" is a Settings word).
    whose = ("this session's model" if role_name in ("prober", "teacher")
             else f"the {role_name.replace('_', ' ')}'s model")
    return (
        f"Add a key: {whose} ({role.model}) needs a key for {lacking}, and none is saved. "
        "Open Settings to paste one, or pick a local model."
    )
