"""Which structured-output mode each server takes, learned from its answers.

``json_schema`` and ``json_object`` are ``response_format`` types; ``text`` sends none and puts
the schema in the prompt (the caller parses the JSON out of the answer). A server that rejects a
mode with a 400 naming the format (LM Studio refuses ``json_object``) is asked again in the
next mode; the mode it accepted is remembered per server and model for the rest of the run.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from studyhall.adapters.llm.litellm_errors import CallTarget
from studyhall.core.contracts.models import ProviderMessage

JSON_SCHEMA, JSON_OBJECT, TEXT = "json_schema", "json_object", "text"
MODES = (JSON_SCHEMA, JSON_OBJECT, TEXT)

_SCHEMA_PROMPT = (
    "Reply with only one JSON object — no prose before or after it, no code fence — that "
    "follows this JSON Schema:\n{schema}"
)


def with_schema_prompt(messages: list[ProviderMessage], schema: dict[str, Any]) -> list[ProviderMessage]:
    """``messages`` with the schema spelled out for a server that takes no response format:
    added to the system message (some chat templates allow only one), else as the first."""
    note = _SCHEMA_PROMPT.format(schema=json.dumps(schema, ensure_ascii=False))
    out = [dict(m) for m in messages]
    for message in out:
        if message.get("role") == "system" and isinstance(message.get("content"), str):
            message["content"] = f"{message['content']}\n\n{note}"
            return out
    return [{"role": "system", "content": note}, *out]


class StructuredModes:
    """Per (server, model): the mode that worked, and the modes it refused."""

    def __init__(self) -> None:
        self._accepted: dict[tuple[str, str], str] = {}
        self._refused: dict[tuple[str, str], set[str]] = {}
        self._lock = threading.Lock()

    @staticmethod
    def _key(target: CallTarget) -> tuple[str, str]:
        return (target.key_name, target.model)

    def mode(self, target: CallTarget, preferred: str) -> str:
        """The mode to send: the one this server accepted before, else ``preferred`` unless it
        was refused, else the next untried mode."""
        key = self._key(target)
        with self._lock:
            if key in self._accepted:
                return self._accepted[key]
            refused = self._refused.get(key, set())
        return next(m for m in (preferred, *MODES) if m not in refused or m == TEXT)

    def refuse(self, target: CallTarget, mode: str) -> str | None:
        """Note that the server rejected ``mode``; the mode to try next, None when even plain
        text was refused (then the rejection is the server's real answer)."""
        if mode == TEXT:
            return None
        key = self._key(target)
        with self._lock:
            self._refused.setdefault(key, set()).add(mode)
            self._accepted.pop(key, None)
            refused = set(self._refused[key])
        return next(m for m in MODES if m not in refused)

    def accept(self, target: CallTarget, mode: str) -> None:
        with self._lock:
            self._accepted[self._key(target)] = mode
