"""The prerequisite graph: ``follows`` edges (prerequisite -> dependent) as a directed graph, and
each concept's prerequisite ancestors — everything it builds on, directly or through others.

The graph may hold cycles (two runs can state the order both ways); a concept is never its own
ancestor, and each ancestor is listed once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx


class PrerequisiteGraph:
    """Built once from a graph's ``follows`` edges; answers for any number of concepts."""

    def __init__(self, follows: Iterable[tuple[str, str]]) -> None:
        import networkx as nx  # on first use: the learner model runs long after start-up

        # Stored reversed (dependent -> prerequisite), so "what does X build on?" is a plain
        # breadth-first search from X.
        self._builds_on: nx.DiGraph[str] = nx.DiGraph()
        self._builds_on.add_edges_from((target, source) for source, target in follows)

    def ancestors(self, node_id: str) -> tuple[str, ...]:
        """Every prerequisite of ``node_id``, nearest first (then by id); empty for a concept
        with none or one the graph does not know."""
        import networkx as nx

        if node_id not in self._builds_on:
            return ()
        depth = nx.single_source_shortest_path_length(self._builds_on, node_id)
        del depth[node_id]
        return tuple(sorted(depth, key=lambda other: (depth[other], other)))

