"""Nearest existing nodes for a finding, lexically: what the auditor compares identity against.

An inverted index over node words with idf weighting, so a finding is scored only against
nodes that share a word with it. Embedding-based neighbours can replace this behind the same
``NeighbourFinder`` port.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Protocol

from studyhall.core.library.extraction.findings import NodeRef

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_STOP = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "has", "have", "in", "is", "it", "its", "of", "on", "or", "that", "the", "this", "to", "was", "were", "will", "with", "which", "what", "when", "where", "who", "why", "how", "not", "no", "can"]
)


class NeighbourFinder(Protocol):
    async def nearest(self, texts: Sequence[str], k: int) -> list[list[NodeRef]]:
        """For each text, up to ``k`` existing nodes, most similar first."""
        ...


def words(text: str) -> set[str]:
    return {w for w in (m.group(0).casefold() for m in _WORD.finditer(text))
            if w not in _STOP and (len(w) > 1 or w.isdigit())}


class LexicalNeighbours:
    def __init__(self, nodes: Sequence[NodeRef]) -> None:
        self._nodes = list(nodes)
        self._postings: dict[str, list[int]] = {}
        self._lengths: list[int] = []
        for i, node in enumerate(self._nodes):
            node_words = words(node.text)
            self._lengths.append(len(node_words))
            for w in node_words:
                self._postings.setdefault(w, []).append(i)
        total = max(len(self._nodes), 1)
        self._idf = {w: math.log(1 + total / len(ids)) for w, ids in self._postings.items()}

    def rank(self, text: str, k: int) -> list[NodeRef]:
        query = words(text)
        scores: dict[int, float] = {}
        for w in query:
            idf = self._idf.get(w)
            if idf is None:
                continue
            for i in self._postings[w]:
                scores[i] = scores.get(i, 0.0) + idf
        # Normalize by size so long nodes do not win by having every word.
        ranked = sorted(
            scores.items(),
            key=lambda item: (-item[1] / math.sqrt(max(self._lengths[item[0]], 1)
                                                   * max(len(query), 1)),
                              self._nodes[item[0]].id))
        return [self._nodes[i] for i, _ in ranked[:k]]

    async def nearest(self, texts: Sequence[str], k: int) -> list[list[NodeRef]]:
        return [self.rank(text, k) for text in texts]
