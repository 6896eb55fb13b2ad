"""The auditor (role ``auditor``): per finding, keep or drop it with a reason, and judge its
identity — ``link_to`` an existing node it IS, or nothing to create a new one.

It sees the findings with their evidence and, per finding, the nearest existing nodes. Its
verdicts are judgement only: the merger still checks every quote and every ``link_to``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from studyhall.core.agents.structured import ask_structured
from studyhall.core.guardrails.material import DATA_NOTICE, data_block
from studyhall.core.library.extraction.batching import Batch
from studyhall.core.library.extraction.findings import (
    Audit,
    AuditorOutput,
    ExtractorOutput,
    NodeRef,
)
from studyhall.core.ports.models import ChatModel

PROMPT_NAME = "auditor.md"

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "verdicts": {
            "type": "array",
            "maxItems": 60,
            "items": {
                "type": "object",
                "properties": {
                    "key": {"type": "string", "maxLength": 80},
                    "keep": {"type": "boolean"},
                    "reason": {"type": "string", "maxLength": 300},
                    "link_to": {"type": ["string", "null"], "maxLength": 80},
                },
                "required": ["key", "keep", "reason"],
            },
        }
    },
    "required": ["verdicts"],
}


def render_findings(findings: ExtractorOutput, neighbours: Mapping[str, Sequence[NodeRef]]) -> str:
    items = [
        {
            "key": p.key,
            "text": p.text,
            "evidence": [{"message_id": e.message_id, "quote": e.quote} for e in p.evidence],
            "understanding": p.understanding,
            "nearest_existing_nodes": [{"id": n.id, "text": n.text}
                                       for n in neighbours.get(p.key, ())],
        }
        for p in findings.propositions
    ]
    return json.dumps({"findings": items}, ensure_ascii=False, indent=1)


def parse_audit(value: Any) -> AuditorOutput:
    return AuditorOutput.model_validate(value)


class ModelAuditor:
    """The model-backed ``Auditor`` port."""

    def __init__(self, model: ChatModel, prompt: str) -> None:
        self._model = model
        self._prompt = prompt.strip()

    async def audit(
        self,
        batch: Batch,
        findings: ExtractorOutput,
        neighbours: Mapping[str, Sequence[NodeRef]],
    ) -> Audit:
        # Findings quote the transcript or the learner's notes: data to judge, never orders.
        messages = [
            {"role": "system", "content": f"{self._prompt}\n\n{DATA_NOTICE}"},
            {"role": "user", "content": data_block(render_findings(findings, neighbours),
                                                   "material", {"kind": "findings"})},
        ]
        output, usage = await ask_structured(self._model, "auditor", messages, SCHEMA,
                                             parse_audit)
        return Audit(output, usage)
