"""Restoring placeholders in streamed text: a placeholder may arrive split across deltas
("<EMA" then "IL_1>"), so a tail that could still become one is held back until it can't."""

from __future__ import annotations

import re

from studyhall.core.guardrails.findings import ENTITY_TYPES
from studyhall.core.guardrails.scrubber import Placeholders

_LONGEST = max(len(t) for t in ENTITY_TYPES) + 9  # "<" + TYPE + "_" + 6 digits + ">"
_PARTIAL = re.compile(r"<[A-Z]*(?:_\d*)?$")


def _could_become_placeholder(tail: str) -> bool:
    if len(tail) > _LONGEST or not _PARTIAL.match(tail):
        return False
    name = tail[1:].split("_", 1)[0]
    return any(t.startswith(name) for t in ENTITY_TYPES) and (
        "_" not in tail or name in ENTITY_TYPES
    )


class StreamRestorer:
    def __init__(self, placeholders: Placeholders, *, json_escaped: bool = False) -> None:
        self._placeholders = placeholders
        self._json = json_escaped
        self._held = ""

    def feed(self, delta: str) -> str:
        text = self._held + delta
        self._held = ""
        cut = text.rfind("<")
        if cut != -1 and ">" not in text[cut:] and _could_become_placeholder(text[cut:]):
            text, self._held = text[:cut], text[cut:]
        return self._placeholders.restore(text, json_escaped=self._json)

    def flush(self) -> str:
        held, self._held = self._held, ""
        return self._placeholders.restore(held, json_escaped=self._json)
