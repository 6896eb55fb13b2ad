"""The labeler naming a cluster: what it is shown, and how its answer becomes a clean label.

One cheap call per new (or term-named) cluster; the runtime keeps a label while most of the
cluster's core survives, so re-clustering does not re-spend calls.
"""

from __future__ import annotations

from collections.abc import Sequence

from studyhall.core.contracts.models import ModelRequest, ProviderMessage
from studyhall.core.ports.models import ChatModel

PROMPT_NAME = "cluster_labeler.md"
MAX_LABEL = 40
MAX_STATEMENTS = 12
_STATEMENT_CHARS = 200


def label_messages(prompt: str, texts: Sequence[str]) -> list[ProviderMessage]:
    """System prompt plus up to ``MAX_STATEMENTS`` of the cluster's statements."""
    shown = [
        t if len(t) <= _STATEMENT_CHARS else t[: _STATEMENT_CHARS - 1] + "…"
        for t in texts[:MAX_STATEMENTS]
    ]
    body = "\n".join(f"- {t}" for t in shown)
    return [{"role": "system", "content": prompt.strip()}, {"role": "user", "content": body}]


def clean_label(raw: str) -> str | None:
    """First non-empty line, unquoted, trimmed; None when nothing usable came back."""
    line = next((ln.strip() for ln in raw.splitlines() if ln.strip()), "")
    line = line.removeprefix("Label:").removeprefix("label:").strip()
    line = line.strip("\"'`*#-").strip().rstrip(".").strip()
    if not line:
        return None
    return line if len(line) <= MAX_LABEL else line[: MAX_LABEL - 1].rstrip() + "…"


async def ask_label(model: ChatModel, prompt: str, texts: Sequence[str]) -> str | None:
    """One labeler call. Raises ``ModelError`` like any model call."""
    request = ModelRequest(role="labeler", messages=tuple(label_messages(prompt, texts)))
    parts: list[str] = []
    async for event in model.stream(request):
        if event.type == "text-delta":
            parts.append(event.text)
    return clean_label("".join(parts))
