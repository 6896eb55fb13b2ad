"""What one upkeep refresh did: nodes embedded (and the vector cache's hits), clusters named,
positions settled, the seconds each step took, and what went wrong (derived data: a problem is
reported, never raised)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class UpkeepReport:
    nodes: int = 0
    embedded: int = 0
    cache_hits: int = 0
    cache_misses: int = 0
    clusters: int = 0
    labeled_by_model: int = 0
    labeled_by_terms: int = 0
    positioned: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def hit_rate(self) -> float | None:
        total = self.cache_hits + self.cache_misses
        return self.cache_hits / total if total else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "nodes": self.nodes,
            "embedded": self.embedded,
            "embedding_cache": {
                "hits": self.cache_hits,
                "misses": self.cache_misses,
                "hit_rate": self.hit_rate,
            },
            "clusters": self.clusters,
            "labeled_by_model": self.labeled_by_model,
            "labeled_by_terms": self.labeled_by_terms,
            "positioned": self.positioned,
            "seconds": self.seconds,
            "problems": self.problems,
        }
