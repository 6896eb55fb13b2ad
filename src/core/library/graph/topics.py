"""A topic's family on the graph: the topic and the nodes whose ``supports`` edges lead to it,
level by level. Artifacts read it to write from a topic, exports to pick a topic's cards."""

from __future__ import annotations

from collections import deque

from studyhall.core.library.graph.view import GraphSnapshot, SnapshotNode

FAMILY_LIMIT = 40  # nodes a topic's family holds at most (the writers' fact budget)


def topic_family(snapshot: GraphSnapshot, node_id: str,
                 limit: int = FAMILY_LIMIT) -> list[SnapshotNode]:
    """A topic and what hangs under it: the nodes whose ``supports`` edges lead to it, level by
    level (sub-topics, then their propositions), nearest first."""
    children: dict[str, list[str]] = {}
    for edge in snapshot.edges:
        if edge.kind == "supports":
            children.setdefault(edge.target, []).append(edge.source)
    root = snapshot.node(node_id)
    if root is None:
        return []
    family, seen, queue = [root], {node_id}, deque([node_id])
    while queue and len(family) < limit:
        for child_id in children.get(queue.popleft(), ()):
            child = snapshot.node(child_id)
            if child is None or child_id in seen:
                continue
            seen.add(child_id)
            family.append(child)
            queue.append(child_id)
            if len(family) >= limit:
                break
    return family
