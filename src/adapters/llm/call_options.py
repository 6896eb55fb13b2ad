"""What one role's call looks like to litellm: the call target and the per-model parameters.

Capabilities come from litellm's bundled model map: ``reasoning_effort`` is sent only to models
that reason and whose provider takes the parameter. A response schema is sent in the
structured-output mode ``StructuredModes`` picked for that server (``json_schema``,
``json_object``, or plain text with the schema in the prompt). The call waits for bytes as long
as the settings allow for where the server runs.
"""

from __future__ import annotations

import copy
import re
from dataclasses import replace
from types import ModuleType
from typing import Any

from studyhall.adapters.llm.litellm_errors import CallTarget
from studyhall.adapters.llm.server_models import called_model
from studyhall.adapters.llm.structured_modes import TEXT, with_schema_prompt
from studyhall.core.contracts.models import ModelRequest
from studyhall.core.contracts.settings import LOCAL_PROVIDERS, RoleModel, Timeouts
from studyhall.core.errors import ModelNotConfigured

# Servers on the learner's machine (LOCAL_PROVIDERS) need no key; one is still sent when saved.
# OpenAI-compatible servers without auth still need *some* key for the client library.
NO_KEY_PLACEHOLDER = "sk-no-key-required"
# A reasoning model thinks inside max_tokens (Anthropic refuses a cap below the thinking
# budget): the cap on the answer is raised by litellm's budget for the effort sent.
THINKING_TOKENS = {"minimal": 128, "low": 1_024, "medium": 2_048, "high": 4_096}


def resolve_target(
    litellm: ModuleType, role: str, role_model: RoleModel, timeouts: Timeouts | None = None
) -> tuple[CallTarget, str]:
    """The call target and the bare model name (provider prefix removed); with ``timeouts``,
    the target carries the wait that suits where its server runs."""
    try:
        bare, provider, _, _ = litellm.get_llm_provider(
            model=role_model.model, api_base=role_model.api_base
        )
    except Exception as e:  # litellm raises a plain BadRequestError/ValueError for unknown ids
        raise ModelNotConfigured(
            f"The {role.replace('_', ' ')}'s model '{role_model.model}' names no provider litellm "
            f"knows. Use an id such as 'openai/gpt-4.1-mini', 'anthropic/claude-sonnet-4-5' or "
            f"'ollama/llama3.2' in Settings → Advanced → Models.",
            role=role,
        ) from e
    target = CallTarget(
        role=role,
        model=role_model.model,
        provider=str(provider),
        api_base=role_model.api_base,
        local=provider in LOCAL_PROVIDERS,
    )
    if timeouts is not None:
        wait = timeouts.local_s if target.near else timeouts.hosted_s
        target = replace(target, timeout=wait)
    return target, str(bare)


class Capabilities:
    """Cached per-model capability answers (litellm's lookups are not free)."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, str, str], Any] = {}

    def _params(self, litellm: ModuleType, bare: str, provider: str) -> list[str]:
        key = ("params", bare, provider)
        if key not in self._cache:
            try:
                found = litellm.get_supported_openai_params(
                    model=bare, custom_llm_provider=provider
                )
            except Exception:  # noqa: BLE001 - unknown to litellm: assume no optional params
                found = None
            self._cache[key] = list(found or [])
        return list(self._cache[key])

    def _flag(self, litellm: ModuleType, check: str, model: str, provider: str) -> bool:
        key = (check, model, provider)
        if key not in self._cache:
            try:
                self._cache[key] = bool(
                    getattr(litellm, check)(model=model, custom_llm_provider=provider)
                )
            except Exception:  # noqa: BLE001 - unknown to litellm's map: not supported
                self._cache[key] = False
        return bool(self._cache[key])

    def reasoning_effort(self, litellm: ModuleType, t: CallTarget, bare: str) -> bool:
        return self._flag(litellm, "supports_reasoning", t.model, t.provider) and (
            "reasoning_effort" in self._params(litellm, bare, t.provider)
        )

    def schema_mode(self, litellm: ModuleType, t: CallTarget, bare: str) -> str:
        """The structured-output mode to try first: an OpenAI-compatible server reached by
        address gets ``json_schema`` (LM Studio, vLLM, llama.cpp and Ollama all take it);
        a known provider what litellm's map says it supports."""
        if "response_format" not in self._params(litellm, bare, t.provider):
            return TEXT
        if t.api_base and not t.local:
            return "json_schema"
        if self._flag(litellm, "supports_response_schema", t.model, t.provider):
            return "json_schema"
        return "json_object"


def _schema_name(schema: dict[str, Any]) -> str:
    title = schema.get("title")
    name = re.sub(r"[^A-Za-z0-9_-]", "_", title if isinstance(title, str) and title else "answer")
    return name[:64]


def build_kwargs(
    litellm: ModuleType,
    caps: Capabilities,
    request: ModelRequest,
    target: CallTarget,
    bare: str,
    role_model: RoleModel,
    *,
    timeout: float,
    schema_mode: str | None = None,
    max_tokens: int | None = None,
) -> dict[str, Any]:
    """Everything but the key (and the mock) for ``litellm.acompletion``; a response schema
    goes out in ``schema_mode`` (see ``StructuredModes``); ``max_tokens`` caps the answer
    (the request's own cap wins)."""
    messages = copy.deepcopy(list(request.messages))  # litellm may rewrite messages
    if request.response_schema is not None and schema_mode == TEXT:
        messages = with_schema_prompt(messages, request.response_schema)
    kwargs: dict[str, Any] = {
        "model": called_model(role_model.model),
        "messages": messages,
        "stream": True,
        "stream_options": {"include_usage": True},
        "timeout": timeout,
        "max_retries": 0,  # retries are ours: bounded, and never after the first delta
    }
    if request.tools:
        kwargs["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": t.name,
                    "description": t.description,
                    "parameters": t.parameters,
                },
            }
            for t in request.tools
        ]
    if role_model.api_base:
        kwargs["api_base"] = role_model.api_base
    thinking = 0
    if role_model.effort and caps.reasoning_effort(litellm, target, bare):
        kwargs["reasoning_effort"] = role_model.effort
        thinking = THINKING_TOKENS.get(role_model.effort, 0)
    cap = request.max_tokens or max_tokens
    if cap is not None:
        kwargs["max_tokens"] = cap + thinking
    if request.response_schema is not None:
        mode = schema_mode or caps.schema_mode(litellm, target, bare)
        if mode == "json_schema":
            kwargs["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": _schema_name(request.response_schema),
                    "schema": request.response_schema,
                },
            }
        elif mode == "json_object":
            kwargs["response_format"] = {"type": "json_object"}
    return kwargs
