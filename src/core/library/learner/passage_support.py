"""Which graph nodes a passage of a source supports: the nodes whose evidence cites that source
with a quote the passage holds (or mostly holds: imports re-flow whitespace and markup)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from studyhall.core.library.graph.view import SnapshotNode

_WORD = re.compile(r"\w+")
MIN_SHARE = 0.7  # of a quote's words the passage must hold


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def supported_nodes(nodes: Iterable[SnapshotNode], source_id: str, passage: str,
                    limit: int = 3) -> list[SnapshotNode]:
    """Up to ``limit`` nodes the passage supports, best supported first."""
    flat = " ".join(_words(passage))
    held = set(_words(passage))
    scored: list[tuple[float, str, SnapshotNode]] = []
    for node in nodes:
        if source_id not in node.sources:
            continue
        best = 0.0
        for row in node.rows()[0]:
            if row[0] != source_id:
                continue
            quote = _words(row[2])
            if not quote:
                continue
            share = 1.0 if " ".join(quote) in flat else sum(w in held for w in quote) / len(quote)
            best = max(best, share)
        if best >= MIN_SHARE:
            scored.append((best, node.id, node))
    scored.sort(key=lambda s: (-s[0], s[1]))
    return [node for _, _, node in scored[:limit]]
