"""Whole-plan checks that need every statement: the plan must be a DAG.

A cycle is reported at the edge that closes it, naming its nodes in order
(``A -> B -> C -> A``). Depth-first search reports one cycle per back edge: removing or
reversing the reported edges always leaves a DAG, and the work stays linear in the plan's size.
"""

from __future__ import annotations

from dataclasses import dataclass

from studyhall.core.classroom.plan_scan import PlanSyntaxError
from studyhall.core.contracts.plan import EdgeKind


@dataclass(frozen=True)
class EdgeAt:
    """An edge with the position of its operator, for error messages."""

    source: str
    target: str
    label: str | None
    kind: EdgeKind
    pos: int


def cycle_errors(nodes: list[str], edges: list[EdgeAt]) -> list[PlanSyntaxError]:
    adjacency: dict[str, list[EdgeAt]] = {n: [] for n in nodes}
    for e in edges:
        adjacency.setdefault(e.source, []).append(e)
        adjacency.setdefault(e.target, [])
    state: dict[str, int] = {}  # 1 = on the current path, 2 = finished
    errors: list[PlanSyntaxError] = []
    seen: set[tuple[str, ...]] = set()
    for root in adjacency:
        if root in state:
            continue
        path = [root]
        index = {root: 0}
        state[root] = 1
        cursors = [0]  # iterative DFS: no recursion limit on long chains
        while path:
            node = path[-1]
            out = adjacency[node]
            if cursors[-1] == len(out):
                state[node] = 2
                del index[node]
                path.pop()
                cursors.pop()
                continue
            edge = out[cursors[-1]]
            cursors[-1] += 1
            nxt = edge.target
            if state.get(nxt) == 1:
                cycle = path[index[nxt] :] + [nxt]
                key = _rotation_key(cycle[:-1])
                if key not in seen:
                    seen.add(key)
                    errors.append(
                        PlanSyntaxError(
                            edge.pos,
                            f"the plan has a cycle: {' -> '.join(cycle)}; a plan lists "
                            "prerequisites first and never loops back, so remove or reverse one "
                            "of these edges",
                        )
                    )
            elif nxt not in state:
                state[nxt] = 1
                index[nxt] = len(path)
                path.append(nxt)
                cursors.append(0)
    return errors


def _rotation_key(cycle: list[str]) -> tuple[str, ...]:
    """The same cycle found from another start is reported once."""
    start = cycle.index(min(cycle))
    return tuple(cycle[start:] + cycle[:start])
