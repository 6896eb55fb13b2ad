"""The extractor (role ``extractor``): reads one batch of transcript views — never the plan
tree — and proposes propositions, edges, understanding observations and evidence quotes.

What it sees is exactly the views the coverage ledger fingerprints, each line prefixed with
its stable line id so evidence can cite a message (``m_7``) or one line of it (``m_7/3``).
The prompt text is passed in (the runtime loads ``prompts/extractor.md``; core does no I/O).
"""

from __future__ import annotations

from typing import Any

from studyhall.core.agents.structured import ask_structured
from studyhall.core.guardrails.material import DATA_NOTICE, data_block
from studyhall.core.library.extraction.batching import Batch
from studyhall.core.library.extraction.findings import Extraction, ExtractorOutput
from studyhall.core.ports.models import ChatModel

PROMPT_NAME = "extractor.md"

_ID = {"type": "string", "maxLength": 80}
_EVIDENCE = {
    "type": "object",
    "properties": {"message_id": {"type": "string", "maxLength": 40},
                   "quote": {"type": "string", "maxLength": 400}},
    "required": ["message_id", "quote"],
}
# Bounded everywhere (core.agents.schema_bounds): a grammar-led small model stops each string.
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "propositions": {
            "type": "array",
            "maxItems": 40,
            "items": {
                "type": "object",
                "properties": {
                    "key": _ID,
                    "text": {"type": "string", "maxLength": 400},
                    "evidence": {"type": "array", "items": _EVIDENCE, "maxItems": 6},
                    "understanding": {
                        "type": "string",
                        "enum": ["solid", "partial", "confused", "misconception"],
                    },
                    "quizzes": {"type": "array", "items": {"type": "string", "maxLength": 40},
                                "maxItems": 10},
                },
                "required": ["key", "text", "evidence"],
            },
        },
        "edges": {
            "type": "array",
            "maxItems": 80,
            "items": {
                "type": "object",
                "properties": {
                    "from": _ID,
                    "to": _ID,
                    "kind": {"type": "string", "enum": ["follows", "supports"]},
                },
                "required": ["from", "to", "kind"],
            },
        },
    },
    "required": ["propositions", "edges"],
}


def render_batch(batch: Batch) -> str:
    """The transcript as the extractor reads it: one block per view, lines with their ids."""
    blocks = []
    for view in batch.views:
        header = f"### message {view.message_id} · {view.label} · {view.at:%Y-%m-%d %H:%M}"
        lines = [f"{view.line_id(n)} | {line}" for n, line in enumerate(view.lines, start=1)]
        blocks.append("\n".join([header, *lines]))
    return "\n\n".join(blocks)


def parse_extraction(value: Any) -> ExtractorOutput:
    return ExtractorOutput.model_validate(value)


class ModelExtractor:
    """The model-backed ``Extractor`` port; ``prompt`` is the system prompt to use (the notes
    importer passes its own)."""

    def __init__(self, model: ChatModel, prompt: str) -> None:
        self._model = model
        self._prompt = prompt.strip()

    async def extract(self, batch: Batch) -> Extraction:
        # A session transcript or imported notes: either way data to read, never instructions.
        messages = [
            {"role": "system", "content": f"{self._prompt}\n\n{DATA_NOTICE}"},
            {"role": "user", "content": "Transcript to extract from:\n\n"
             + data_block(render_batch(batch), "material", {"kind": "transcript"})},
        ]
        output, usage = await ask_structured(self._model, "extractor", messages, SCHEMA,
                                             parse_extraction)
        return Extraction(output, usage)
