"""The extractor (role ``extractor``): reads one batch of transcript views — never the plan
tree — and proposes propositions, edges, understanding observations and evidence quotes.

What it sees is exactly the views the coverage ledger fingerprints, each line prefixed with
its stable line id so evidence can cite a message or one line of it. Long ids are shown short
(``m1``, ``m2/3``, listed first) because small models copy those and invent long ones; the
answer's ids are mapped back (``cite_back``).
The prompt text is passed in (the runtime loads ``prompts/extractor.md``; core does no I/O).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from studyhall.core.agents.structured import ask_structured
from studyhall.core.guardrails.material import DATA_NOTICE, data_block
from studyhall.core.library.extraction.batching import Batch
from studyhall.core.library.extraction.evidence import normalize_ws
from studyhall.core.library.extraction.findings import EvidenceClaim, Extraction, ExtractorOutput
from studyhall.core.ports.models import ChatModel

PROMPT_NAME = "extractor.md"
SHORT_ID = 8  # an id this short is shown as it is

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


def short_ids(batch: Batch) -> dict[str, str]:
    """The ids the extractor cites, as small models copy them: ``m1``, ``m2``… per view, mapped
    to the view's real id (none when every real id is short already, or one looks like an
    alias)."""
    ids = batch.message_ids
    aliases = {f"m{n}": mid for n, mid in enumerate(ids, start=1)}
    if all(len(mid) <= SHORT_ID for mid in ids) or set(aliases) & set(ids):
        return {}
    return aliases


def render_batch(batch: Batch, aliases: Mapping[str, str] | None = None) -> str:
    """The transcript as the extractor reads it: one block per view, lines with their ids (the
    short ones of ``aliases`` when given)."""
    shown = {mid: alias for alias, mid in (aliases or {}).items()}
    blocks = []
    for view in batch.views:
        cited = shown.get(view.message_id, view.message_id)
        header = f"### message {cited} · {view.label} · {view.at:%Y-%m-%d %H:%M}"
        lines = [f"{cited}/{n} | {line}" for n, line in enumerate(view.lines, start=1)]
        blocks.append("\n".join([header, *lines]))
    return "\n\n".join(blocks)


def _id_listing(aliases: Mapping[str, str]) -> str:
    return f"Message ids you may cite: {', '.join(aliases)} (or a line: m1/2).\n\n"


def _plain_id(cited: str) -> str:
    """``[M_1]``, ``m 1``, ``"m1"`` -> ``m1``: how small models garble a short id."""
    return "".join(ch for ch in cited.lower() if ch.isalnum() or ch == "/")


def cite_back(output: ExtractorOutput, batch: Batch, aliases: Mapping[str, str]) -> ExtractorOutput:
    """Evidence citing a short id cites the real one again. A cited id that names nothing in
    the batch is repaired only when its quote occurs in exactly one view (by content, after
    whitespace normalization); else it stays, and the merger's check drops it."""
    known = set(batch.message_ids)
    texts = {v.message_id: normalize_ws("\n".join(v.lines)) for v in batch.views}

    def real(claim: EvidenceClaim) -> str:
        cited = claim.message_id.strip()
        head, sep, line = cited.rpartition("/")
        if not sep or not line.isdigit():
            head, sep, line = cited, "", ""
        if cited in known or head in known:
            return cited
        alias = aliases.get(_plain_id(head))
        if alias is not None:
            return f"{alias}/{line}" if line else alias
        wanted = normalize_ws(claim.quote)
        holders = [mid for mid, text in texts.items() if wanted and wanted in text]
        return holders[0] if len(holders) == 1 else cited

    propositions = tuple(
        p.model_copy(update={"evidence": tuple(
            e.model_copy(update={"message_id": real(e)}) for e in p.evidence)})
        for p in output.propositions)
    return output.model_copy(update={"propositions": propositions})


def parse_extraction(value: Any) -> ExtractorOutput:
    return ExtractorOutput.model_validate(value)


class ModelExtractor:
    """The model-backed ``Extractor`` port; ``prompt`` is the system prompt to use (the notes
    importer passes its own)."""

    def __init__(self, model: ChatModel, prompt: str, *, short: bool = True) -> None:
        self._model = model
        self._prompt = prompt.strip()
        # Notes keep their section ids (``note_ab12#Heading``): the notes prompt names them.
        self._short = short

    async def extract(self, batch: Batch) -> Extraction:
        # A session transcript or imported notes: either way data to read, never instructions.
        aliases = short_ids(batch) if self._short else {}
        messages = [
            {"role": "system", "content": f"{self._prompt}\n\n{DATA_NOTICE}"},
            {"role": "user", "content": "Transcript to extract from:\n\n"
             + (_id_listing(aliases) if aliases else "")
             + data_block(render_batch(batch, aliases), "material", {"kind": "transcript"})},
        ]
        output, usage = await ask_structured(self._model, "extractor", messages, SCHEMA,
                                             parse_extraction)
        return Extraction(cite_back(output, batch, aliases), usage)
