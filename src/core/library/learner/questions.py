"""The check a model-written review question must pass before it is kept: its quote occurs
verbatim (whitespace-normalised, the extraction's evidence rule) in the node's text or one of its
evidence quotes, and its answer says something the question does not already say.
"""

from __future__ import annotations

from collections.abc import Sequence

from studyhall.core.library.extraction.evidence import MIN_QUOTE_CHARS, normalize_ws
from studyhall.core.library.graph.view import SnapshotNode


def evidence_texts(node: SnapshotNode) -> list[str]:
    """What a question on ``node`` may quote: its text, then every evidence quote it rests on."""
    return [node.text, *(row[2] for row in node.rows()[0] if row[2])]


def check_question(question: str, answer: str, evidence_quote: str,
                   evidence: Sequence[str]) -> str | None:
    """Why the question cannot be kept, or None when it passes."""
    asked, said = normalize_ws(question), normalize_ws(answer)
    if not asked:
        return "the question is empty"
    if not said:
        return "the answer is empty"
    if said.casefold() == asked.casefold() or said.casefold() in asked.casefold():
        return "the answer only repeats the question"
    quote = normalize_ws(evidence_quote)
    if len(quote) < MIN_QUOTE_CHARS:
        return "the evidence quote is empty or too short to check"
    if not any(quote in normalize_ws(text) for text in evidence):
        return f"the evidence quote is not in the node's text or evidence: {quote[:80]!r}"
    return None
