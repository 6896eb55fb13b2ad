"""Which calls are scrubbed: every call to a hosted provider; a call to a model served on the
learner's own machine (Ollama, LM Studio, a localhost server) only when Settings says so."""

from __future__ import annotations

from urllib.parse import urlsplit

from studyhall.core.contracts.settings import LOCAL_PROVIDERS, ModelRole, RoleModel, Settings
from studyhall.core.ports.storage import SettingsStore

_LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "0.0.0.0"})


def is_local(model: RoleModel) -> bool:
    """True when the prompt never leaves the machine: a local provider, or a server address
    on the loopback interface. A LAN or remote address counts as hosted."""
    if model.model.split("/", 1)[0] in LOCAL_PROVIDERS and model.api_base is None:
        return True
    if model.api_base is None:
        return False
    host = (urlsplit(model.api_base).hostname or "").lower()
    return host in _LOOPBACK_HOSTS or host.startswith("127.")


def scrubs(settings: Settings, role: ModelRole) -> bool:
    return not is_local(settings.model_for(role)) or settings.privacy.scrub_local


class SettingsScrubPolicy:
    """``scrubs`` over the settings as saved at each call, so a Privacy change applies to the
    next call (the composition root hands this to ``GuardedChatModel``)."""

    def __init__(self, settings: SettingsStore) -> None:
        self._settings = settings

    def __call__(self, role: ModelRole) -> bool:
        return scrubs(self._settings.load(), role)
