"""A model for graph tests: the extractor and auditor answer from the batch they were shown
(one proposition per teacher line, quoted verbatim); every other role is the wrapped model."""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

from studyhall.core.contracts.chat import Usage
from studyhall.core.contracts.models import (
    FinishEvent,
    ModelEvent,
    ModelRequest,
    StreamedText,
    UsageEvent,
)
from studyhall.core.ports.models import ChatModel

from tests.support.chat_model import Answer, FunctionChatModel


class CitingAnswers:
    """The answer function; ``keys`` are the propositions of the last extraction (the auditor
    keeps them all)."""

    def __init__(self, inner: ChatModel) -> None:
        self.inner = inner
        self.keys: list[str] = []

    def __call__(self, request: ModelRequest) -> Answer:
        if request.role == "extractor":
            return _answer(self._extract(request))
        if request.role == "auditor":
            return _answer({"verdicts": [{"key": k, "keep": True, "reason": "quoted"}
                                         for k in self.keys]})
        return self.inner.stream(request)

    def _extract(self, request: ModelRequest) -> dict[str, Any]:
        text = "\n".join(str(m.get("content", "")) for m in request.messages)
        propositions = []
        for block in re.split(r"\n(?=### message )", text):
            head = re.match(r"### message (\S+) · (\w+)", block.strip())
            if not head or head.group(2) not in ("teacher", "prober"):
                continue
            for line in block.splitlines()[1:]:
                body = line.split(" | ", 1)[-1].strip()
                if len(body) >= 12 and not body.startswith(("[", "{")):
                    key = f"p{len(propositions) + 1}"
                    propositions.append({"key": key, "text": body.rstrip("."),
                                         "evidence": [{"message_id": head.group(1), "quote": body}],
                                         "understanding": "solid" if key == "p1" else "partial"})
        self.keys = [p["key"] for p in propositions]
        edges = [{"from": a["key"], "to": b["key"], "kind": "follows"}
                 for a, b in itertools.pairwise(propositions)]
        return {"propositions": propositions, "edges": edges}


def _answer(value: dict[str, Any]) -> list[ModelEvent]:
    return [StreamedText(json.dumps(value)),
            UsageEvent(Usage(input_tokens=200, output_tokens=80, cost_usd=0.0012)),
            FinishEvent("stop")]


def citing_extractor(inner: ChatModel) -> FunctionChatModel:
    return FunctionChatModel(CitingAnswers(inner))
