"""A deterministic token estimate: the same text always costs the same, on every machine.

No tokenizer: budgets only need to be stable and roughly right (≈4 characters per token for
English prose, plus one per line for the separator the transcript rendering adds).
"""

from __future__ import annotations

from collections.abc import Iterable


def estimate_text_tokens(text: str) -> int:
    return (len(text) + 3) // 4


def estimate_tokens(lines: Iterable[str]) -> int:
    return sum(estimate_text_tokens(line) + 1 for line in lines)
