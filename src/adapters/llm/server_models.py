"""Where a role's model server is, and which models it serves: the address a local provider
uses when none is typed, the server's root (an OpenAI-compatible base without ``/v1``), the
name the server knows the model by, and its model list from ``/v1/models`` or Ollama's
``/api/tags`` — for the capability probe, and for naming what a server has when it lacks the
model a role asked for.
"""

from __future__ import annotations

from typing import Any

import httpx
from studyhall.core.errors import ModelError

OLLAMA = frozenset({"ollama", "ollama_chat"})
# The address each local provider listens on when Settings names none (as litellm assumes).
DEFAULT_BASES = {
    "ollama": "http://localhost:11434",
    "ollama_chat": "http://localhost:11434",
    "lm_studio": "http://localhost:1234/v1",
    "llamafile": "http://127.0.0.1:8080/v1",
}
LIST_WAIT_S = 5.0
MAX_LISTED = 12


def split_model_id(model_id: str) -> tuple[str, str]:
    """``(provider, name)``: ``ollama/llama3.2:3b`` → ``("ollama", "llama3.2:3b")``; the name
    keeps every later ``/`` and ``:`` (``lm_studio/qwen/qwen3-4b`` → ``qwen/qwen3-4b``)."""
    prefix, sep, rest = model_id.strip().partition("/")
    return (prefix.lower(), rest) if sep else ("", prefix)


def server_base(provider: str, api_base: str | None) -> str | None:
    """The address calls for this provider go to; None for a hosted provider's own API."""
    if api_base:
        return api_base.rstrip("/")
    return DEFAULT_BASES.get(provider)


def server_root(base: str) -> str:
    """``http://host:port/v1`` → ``http://host:port``: llama.cpp's ``/props`` and LM Studio's
    ``/api/v0`` sit beside the OpenAI routes, not under them."""
    trimmed = base.rstrip("/")
    return trimmed.removesuffix("/v1")


def openai_base(base: str) -> str:
    trimmed = base.rstrip("/")
    return trimmed if trimmed.endswith("/v1") else f"{trimmed}/v1"


def _names(payload: Any) -> list[str]:
    rows: list[Any] = []
    if isinstance(payload, dict):
        for key in ("data", "models"):  # OpenAI's list, Ollama's tags
            if isinstance(payload.get(key), list):
                rows.extend(payload[key])
    names = []
    for row in rows:
        if isinstance(row, dict):
            name = row.get("id") or row.get("name") or row.get("model")
            if isinstance(name, str) and name and name not in names:
                names.append(name)
    return names


async def served_models(
    provider: str, base: str, headers: dict[str, str] | None = None,
    *, client: httpx.AsyncClient | None = None,
) -> list[str] | None:
    """The names the server lists, or None when it cannot be asked (down, or no list route)."""
    url = (f"{server_root(base)}/api/tags" if provider in OLLAMA
           else f"{openai_base(base)}/models")
    own = client is None
    http = client or httpx.AsyncClient(timeout=LIST_WAIT_S)
    try:
        reply = await http.get(url, headers=headers or {})
        if reply.status_code != 200:
            return None
        return _names(reply.json())
    except (httpx.HTTPError, ValueError):
        return None
    finally:
        if own:
            await http.aclose()


def listed(names: list[str]) -> str:
    """``a, b, c`` (at most MAX_LISTED, then how many more)."""
    shown = ", ".join(names[:MAX_LISTED])
    more = len(names) - MAX_LISTED
    return f"{shown} and {more} more" if more > 0 else shown


def called_model(model_id: str) -> str:
    """The id litellm is called with: ``ollama/…`` as ``ollama_chat/…`` — litellm's ``ollama``
    provider goes through ``/api/generate``, which streams no tool calls; ``/api/chat`` does."""
    provider, name = split_model_id(model_id)
    return f"ollama_chat/{name}" if provider == "ollama" else model_id


async def naming_what_it_serves(
    err: ModelError, model_id: str, api_base: str | None, key: str | None,
) -> ModelError:
    """``err`` (a server that lacks the role's model) with the server's own list added, so the
    learner can copy a name that works; ``err`` itself when the list cannot be had."""
    provider, _ = split_model_id(model_id)
    base = server_base(provider, api_base)
    if base is None:
        return err
    names = await served_models(provider, base, {"Authorization": f"Bearer {key}"} if key else None)
    if names is None:
        return err
    has = (f" The server has: {listed(names)}." if names
           else " The server lists no models: load one in it first.")
    return type(err)(f"{err}{has}", role=err.role, provider=err.provider, attempts=err.attempts)
