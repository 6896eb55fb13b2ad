"""Batches: what one extractor call reads, cut from the oldest uncovered views of a source.

Views stay in transcript order and are never split (cutting a message would break the evidence
it can back). Each source kind picks its rule: greedy token-budgeted batches (a model reads
them: a single view larger than the budget becomes a batch of its own), the whole source as one
batch (the model-free note extractor reads a note at once), or a fixed number of views.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from studyhall.core.library.extraction.coverage import View

# A batch this large (~16 KB of text) is extracted and planned in a worker when the caller
# gives an ``OffLoop``: a note of 20k headings held the event loop for seconds even in linear
# time. Below it the hop to a thread costs more than the work (an ordinary note: ~1 ms).
HEAVY_TOKENS = 4_000


@dataclass(frozen=True)
class Batch:
    source_id: str
    views: tuple[View, ...]

    @property
    def tokens(self) -> int:
        return sum(view.tokens for view in self.views)

    @property
    def message_ids(self) -> tuple[str, ...]:
        return tuple(view.message_id for view in self.views)

    @property
    def heavy(self) -> bool:
        """Worth moving off the event loop (see ``HEAVY_TOKENS``)."""
        return self.tokens >= HEAVY_TOKENS


def make_batches(views: Sequence[View], chunk_tokens: int) -> list[Batch]:
    """Pack views greedily, oldest first, each batch ≤ ``chunk_tokens`` unless one view alone
    exceeds it."""
    if chunk_tokens < 1:
        raise ValueError("chunk_tokens must be positive")
    batches: list[Batch] = []
    current: list[View] = []
    used = 0
    for view in views:
        if current and used + view.tokens > chunk_tokens:
            batches.append(Batch(current[0].source_id, tuple(current)))
            current, used = [], 0
        current.append(view)
        used += view.tokens
    if current:
        batches.append(Batch(current[0].source_id, tuple(current)))
    return batches


def whole_source(views: Sequence[View]) -> list[Batch]:
    """Every view as one batch (no budget: nothing but a model reads by the token)."""
    return [Batch(views[0].source_id, tuple(views))] if views else []


def batches_of(views: Sequence[View], count: int) -> list[Batch]:
    """Batches of ``count`` views each, in order."""
    if count < 1:
        raise ValueError("count must be positive")
    return [Batch(views[i].source_id, tuple(views[i : i + count]))
            for i in range(0, len(views), count)]

