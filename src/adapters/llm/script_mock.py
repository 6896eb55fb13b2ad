"""A script entry as litellm's offline ``mock_response``, so scripted runs execute the real adapter.

- plain text (or a ``json`` answer): a string, which litellm streams in small deltas;
- tool calls: a ``litellm.ModelResponse`` whose message carries them; with ``stream=True``
  litellm streams it as chunks with ids, names and argument strings (``mock_tool_calls`` does
  not stream tool calls, so it is not used);
- errors: an instance of the litellm exception a provider would cause, which litellm raises
  from inside ``acompletion`` — so the adapter's mapping and retry code run unchanged.
"""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

from studyhall.adapters.llm.litellm_errors import CallTarget
from studyhall.adapters.llm.script import ScriptEntry


def mock_error(litellm: ModuleType, kind: str, target: CallTarget) -> BaseException:
    kw = {"llm_provider": target.provider, "model": target.model}
    if kind == "auth":
        return litellm.AuthenticationError(message="scripted: the key was refused", **kw)
    if kind == "rate_limit":
        return litellm.RateLimitError(message="scripted: rate limited", **kw)
    if kind == "timeout":
        return litellm.Timeout(message="scripted: request timed out", **kw)
    if kind == "server":
        return litellm.InternalServerError(message="scripted: provider error", **kw)
    if kind == "context_too_long":
        return litellm.ContextWindowExceededError(message="scripted: prompt too long", **kw)
    if kind == "bad_request":
        return litellm.BadRequestError(message="scripted: request rejected", **kw)
    raise ValueError(f"unknown scripted error kind {kind!r}")


def _is_magic(text: str) -> bool:
    # litellm turns a few literal strings into exceptions; such text must travel another way.
    return text.startswith(("litellm.", "Exception: "))


def mock_response_for(litellm: ModuleType, entry: ScriptEntry, target: CallTarget) -> Any:
    """The ``mock_response=`` value that makes litellm answer exactly like ``entry``."""
    if entry.error is not None:
        return mock_error(litellm, entry.error, target)
    text = entry.answer_text
    if not entry.tool_calls and not _is_magic(text or ""):
        return text or ""
    calls = [
        {
            "id": entry.tool_call_id(k),
            "type": "function",
            "function": {
                "name": call.name,
                "arguments": call.arguments
                if isinstance(call.arguments, str)
                else json.dumps(call.arguments, ensure_ascii=False),
            },
        }
        for k, call in enumerate(entry.tool_calls)
    ]
    message: dict[str, Any] = {"role": "assistant", "content": text or None}
    if calls:
        message["tool_calls"] = calls
    return litellm.ModelResponse(
        model=target.model,
        choices=[
            {"index": 0, "finish_reason": "tool_calls" if calls else "stop", "message": message}
        ],
    )
