"""API key names: which secret-store name holds the key a model is called with, and which
models cannot be called without one.

One rule for the litellm adapter that sends the key, the Settings screen that saves keys and
lists the ones still needed, and the readiness check that skips a model with no key. A server
reached by address is keyed by its normal address (``core.contracts.servers``), a provider by
its lower-case name.
"""

from __future__ import annotations

from studyhall.core.contracts.servers import normal_address
from studyhall.core.contracts.settings import LOCAL_PROVIDERS


def provider_of(model: str) -> str | None:
    """The provider prefix of a litellm model id (``openai/gpt-4.1-mini`` → ``openai``); None
    for an id without one (only litellm can tell its provider)."""
    prefix, sep, _ = model.partition("/")
    return prefix.lower() if sep else None


def clean_key_name(name: str) -> str:
    """The form a key name is saved and looked up in: a provider trimmed and lower case, a
    server address in its normal form (so ``Anthropic`` and ``http://Box:1234/v1/`` find the
    keys saved as typed, and ``/V1`` and ``/v1`` stay two servers)."""
    address = normal_address(name) if "://" in name else None
    return address or name.strip().rstrip("/").lower()


def key_name(provider: str, api_base: str | None) -> str:
    """The secret-store name of the key for a model of ``provider`` called at ``api_base``.

    A hosted provider's id pointed at another server is keyed by that server's address, so the
    provider's real key is never sent to a server the learner typed in. Anything else is keyed
    by its provider (a server on the learner's machine gets a key only when one is saved).
    """
    custom_server = bool(api_base) and provider not in LOCAL_PROVIDERS
    return clean_key_name(api_base if custom_server and api_base else provider)


def key_names(provider: str, api_base: str | None) -> tuple[str, ...]:
    """Every name a call's key is looked up under, first match wins: the server's address
    (when one is set), then — only for a local provider such as Ollama, never for a hosted
    provider's key — the provider's name; an address saved before names were normalised
    (lower-cased whole) last."""
    names = [key_name(provider, api_base)]
    if api_base:
        names.insert(0, clean_key_name(api_base))
        names.append(api_base.strip().rstrip("/").lower())
    return tuple(dict.fromkeys(names))


def needs_key(provider: str, api_base: str | None) -> bool:
    """Whether a call cannot go out without a saved (or environment) key: a server on the
    learner's machine needs none, and a custom server is tried without one (its refusal says
    what to do)."""
    return provider not in LOCAL_PROVIDERS and not api_base
