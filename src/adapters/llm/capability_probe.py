"""``HttpCapabilityProbe``: what a role's model server can do, asked of the server itself.

- llama.cpp (``GET /props``): the context per slot (``n_ctx``) and whether the chat template
  takes tools (``chat_template_caps``); it constrains output to a JSON schema.
- Ollama (``POST /api/show``): the ``capabilities`` list (``"tools"``) and the context length
  (``num_ctx`` when the model sets one, else the model's own); it takes JSON schemas.
- LM Studio (``GET /api/v0/models/<id>``): the loaded context and ``"tool_use"``.
- Any OpenAI-compatible server: ``/v1/models`` (a context field where it gives one) and, when
  asked to ``check``, one tiny call with one tool and ``tool_choice`` to see if a call comes
  back (a small model often only prints it).

Hosted providers are not probed (UNKNOWN: the agents try tools first). An answer is cached per
address and model in the data folder (``CapabilityCache``); a server that cannot be reached is
not cached, so the next look asks again. Scripted runs never probe; with real calls off
(tests) only a loopback server is asked.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import httpx
from studyhall.adapters.llm.capability_cache import CapabilityCache
from studyhall.adapters.llm.server_models import (
    OLLAMA,
    listed,
    openai_base,
    served_models,
    server_base,
    server_root,
    split_model_id,
)
from studyhall.core.contracts.api_keys import key_names
from studyhall.core.contracts.model_capabilities import UNKNOWN, ModelCapabilities
from studyhall.core.contracts.servers import is_loopback, normal_address, server_label
from studyhall.core.ports.storage import SecretStore

PROBE_WAIT_S = 10.0
TEST_CALL_WAIT_S = 120.0  # a cold local model loads on its first call
NO_TOOLS = "This model can't call tools: quizzes and plans are written as JSON instead."
_PING = {"type": "function", "function": {
    "name": "ping", "description": "Say that you are here.",
    "parameters": {"type": "object", "properties": {}, "required": []}}}
_NUM_CTX = re.compile(r"^\s*num_ctx\s+(\d+)\s*$", re.MULTILINE)
_CONTEXT_FIELDS = ("loaded_context_length", "max_model_len", "context_length",
                   "max_context_length", "context_window")


class Unreachable(Exception):
    """Nothing answered at the address: not an answer to cache."""


class HttpCapabilityProbe:
    def __init__(self, cache_file: Path, secret_store: SecretStore, *, allow_network: bool,
                 scripted: bool, transport: httpx.AsyncBaseTransport | None = None) -> None:
        self._cache = CapabilityCache(cache_file)
        self._secrets = secret_store
        self._allow_network = allow_network
        self._scripted = scripted
        self._transport = transport  # a test seam (httpx.MockTransport)

    async def capabilities(self, model_id: str, api_base: str | None, *,
                           check: bool = False) -> ModelCapabilities:
        provider, name = split_model_id(model_id)
        base = server_base(provider, api_base)
        if self._scripted or base is None:
            return UNKNOWN  # a script answers offline; a hosted API is not probed
        if not self._allow_network and not is_loopback(base):
            return UNKNOWN
        key = f"{normal_address(base) or base}|{model_id}"
        if not check:
            cached = await asyncio.to_thread(self._cache.get, key)
            if cached is not None:
                return cached
        try:
            found = await self._ask(provider, name, base, check=check)
        except Unreachable:
            return ModelCapabilities(note=f"Nothing answered at {server_label(base)}: start the "
                                          "server, then check again.")
        await asyncio.to_thread(self._cache.put, key, found)
        return found

    async def forget_all_but(self, keep: set[tuple[str, str | None]]) -> None:
        """Drop cached answers for every (model, address) not in ``keep``: a changed setting
        is asked again when it comes back."""
        wanted = set()
        for model_id, api_base in keep:
            base = server_base(split_model_id(model_id)[0], api_base)
            if base is not None:
                wanted.add(f"{normal_address(base) or base}|{model_id}")
        await asyncio.to_thread(self._cache.keep_only, wanted)

    async def _headers(self, provider: str, api_base: str | None) -> dict[str, str]:
        for name in key_names(provider, api_base):
            key = await asyncio.to_thread(self._secrets.get, name)
            if key:
                return {"Authorization": f"Bearer {key}"}
        return {}

    async def _ask(self, provider: str, name: str, base: str, *, check: bool) -> ModelCapabilities:
        headers = await self._headers(provider, base)
        async with httpx.AsyncClient(timeout=PROBE_WAIT_S, transport=self._transport) as http:
            try:
                if provider in OLLAMA:
                    return await self._ollama(http, provider, name, base, headers)
                props = await _json(http, "GET", f"{server_root(base)}/props", headers)
                if isinstance(props, dict) and "default_generation_settings" in props:
                    return await self._llama_cpp(http, name, base, headers, props, check)
                return await self._openai(http, provider, name, base, headers, check)
            except httpx.TransportError as e:
                raise Unreachable(str(e)) from e

    async def _ollama(self, http: httpx.AsyncClient, provider: str, name: str, base: str,
                      headers: dict[str, str]) -> ModelCapabilities:
        reply = await http.post(f"{server_root(base)}/api/show", json={"model": name},
                                headers=headers)
        if reply.status_code == 404:
            return await _missing(http, provider, name, base, headers)
        shown = _body(reply)
        caps = shown.get("capabilities")
        tools = ("tools" in caps) if isinstance(caps, list) else None
        params = shown.get("parameters")
        match = _NUM_CTX.search(params) if isinstance(params, str) else None
        context = int(match.group(1)) if match else _context_length(shown.get("model_info"))
        return ModelCapabilities(tools=tools, json_schema=True, context_tokens=context,
                                 note=NO_TOOLS if tools is False else "")

    async def _llama_cpp(self, http: httpx.AsyncClient, name: str, base: str,
                         headers: dict[str, str], props: dict[str, Any],
                         check: bool) -> ModelCapabilities:
        settings = props.get("default_generation_settings") or {}
        context = settings.get("n_ctx") if isinstance(settings, dict) else None
        caps = props.get("chat_template_caps")
        tools: bool | None = None
        if isinstance(caps, dict) and isinstance(caps.get("supports_tool_calls"), bool):
            tools = bool(caps["supports_tool_calls"])
        if tools and check:  # the template takes tools; does the model make the call?
            tools = await _calls_a_tool(http, name, base, headers)
        return ModelCapabilities(tools=tools, json_schema=True,
                                 context_tokens=context if isinstance(context, int) else None,
                                 note=NO_TOOLS if tools is False else "")

    async def _openai(self, http: httpx.AsyncClient, provider: str, name: str, base: str,
                      headers: dict[str, str], check: bool) -> ModelCapabilities:
        tools: bool | None = None
        context = None
        studio = await _json(http, "GET", f"{server_root(base)}/api/v0/models/{name}", headers)
        if isinstance(studio, dict) and studio.get("id"):  # LM Studio's REST API
            caps = studio.get("capabilities")
            tools = ("tool_use" in caps) if isinstance(caps, list) else None
            context = _context_length(studio)
        listing = await _json(http, "GET", f"{openai_base(base)}/models", headers)
        rows = listing.get("data") if isinstance(listing, dict) else None
        if isinstance(rows, list):
            ids = [r.get("id") for r in rows if isinstance(r, dict)]
            if rows and name not in ids:
                return await _missing(http, provider, name, base, headers)
            row = next((r for r in rows if isinstance(r, dict) and r.get("id") == name), None)
            context = context or _context_length(row)
        if check and tools is None:
            tools = await _calls_a_tool(http, name, base, headers)
        return ModelCapabilities(tools=tools, context_tokens=context,
                                 json_schema=True if provider in ("lm_studio", "hosted_vllm",
                                                                  "vllm") else None,
                                 note=NO_TOOLS if tools is False else "")


async def _missing(http: httpx.AsyncClient, provider: str, name: str, base: str,
                   headers: dict[str, str]) -> ModelCapabilities:
    names = await served_models(provider, base, headers, client=http)
    has = f" It has: {listed(names)}." if names else ""
    return ModelCapabilities(note=f"The server at {server_label(base)} has no model '{name}'."
                                  f"{has}")


async def _calls_a_tool(http: httpx.AsyncClient, name: str, base: str,
                        headers: dict[str, str]) -> bool | None:
    """One tiny call that can only be answered by calling ``ping``: True when a tool call
    comes back, False when the model answers in text or the server refuses tools."""
    body = {"model": name, "max_tokens": 48, "stream": False, "tools": [_PING],
            "tool_choice": "required",
            "messages": [{"role": "user", "content": "Call the ping tool now."}]}
    try:
        reply = await http.post(f"{openai_base(base)}/chat/completions", json=body,
                                headers=headers, timeout=TEST_CALL_WAIT_S)
    except httpx.TimeoutException:
        return None  # still loading: unknown, asked again next time
    if reply.status_code in (400, 422, 500, 501):
        return False  # "tools are not supported" in one wording or another
    if reply.status_code != 200:
        return None
    choices = _body(reply).get("choices")
    message = choices[0].get("message") if isinstance(choices, list) and choices else None
    return bool(isinstance(message, dict) and message.get("tool_calls"))


async def _json(http: httpx.AsyncClient, method: str, url: str,
                headers: dict[str, str]) -> Any:
    reply = await http.request(method, url, headers=headers)
    return _body(reply) if reply.status_code == 200 else None


def _body(reply: httpx.Response) -> dict[str, Any]:
    try:
        value = reply.json()
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _context_length(info: Any) -> int | None:
    """A context size in a model description: a known field, or Ollama's
    ``<architecture>.context_length``."""
    if not isinstance(info, dict):
        return None
    for field in _CONTEXT_FIELDS:
        if isinstance(info.get(field), int) and info[field] > 0:
            return int(info[field])
    meta = info.get("meta")
    if isinstance(meta, dict) and isinstance(meta.get("n_ctx_train"), int):
        return int(meta["n_ctx_train"])
    for field, value in info.items():
        if field.endswith(".context_length") and isinstance(value, int) and value > 0:
            return value
    return None
