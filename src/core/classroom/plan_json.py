"""The plan tree as JSON: the one shape the chat view and ``studyhall plan check`` print.

``{"direction", "nodes": [{"id", "label", "shape", "group"?, "status"?}], "edges": [{"from",
"to", "label", "kind"}], "groups"?}``. The chat view names a node's subgraph when it has one and
adds derived statuses; the CLI prints subgraphs only when asked, then for every node.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from studyhall.core.contracts.plan import Plan, PlanStatus

# "set": a node's "group" when it has one; "all": every node's (null outside any subgraph) and
# the top-level "groups" list; "none": no subgraph information.
GroupsShown = Literal["set", "all", "none"]


def plan_json(
    plan: Plan,
    *,
    statuses: Mapping[str, PlanStatus] | None = None,
    groups: GroupsShown = "set",
) -> dict[str, Any]:
    """``statuses``: each node's derived status (a node not in it is ``upcoming``)."""
    nodes = []
    for node in plan.nodes:
        item: dict[str, Any] = {"id": node.id, "label": node.label, "shape": node.shape}
        if groups == "all" or (groups == "set" and node.group is not None):
            item["group"] = node.group
        if statuses is not None:
            item["status"] = statuses.get(node.id, "upcoming")
        nodes.append(item)
    out: dict[str, Any] = {
        "direction": plan.direction,
        "nodes": nodes,
        "edges": [
            {"from": e.source, "to": e.target, "label": e.label, "kind": e.kind}
            for e in plan.edges
        ],
    }
    if groups == "all":
        out["groups"] = [g.model_dump(mode="json") for g in plan.groups]
    return out
