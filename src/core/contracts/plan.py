"""The plan tree: a session's dependency map, authored once by the teacher (mermaid subset).

Statuses are derived from the transcript, never stored.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from studyhall.core.contracts.base import Record

Direction = Literal["TD", "TB", "LR", "RL", "BT"]
NodeShape = Literal[
    "rect",  # A or A[text]
    "round",  # A(text)
    "circle",  # A((text))
    "diamond",  # A{text}
    "hexagon",  # A{{text}}
    "stadium",  # A([text])
    "subroutine",  # A[[text]]
]
EdgeKind = Literal["arrow", "open", "dotted", "thick"]  # -->  ---  -.->  ==>
PlanStatus = Literal["current", "visited", "upcoming"]


class PlanNode(Record):
    id: str = Field(min_length=1)
    label: str
    shape: NodeShape = "rect"
    group: str | None = None  # the subgraph the node belongs to, if any


class PlanEdge(Record):
    source: str = Field(alias="from", min_length=1)
    target: str = Field(alias="to", min_length=1)
    label: str | None = None
    kind: EdgeKind = "arrow"


class PlanGroup(Record):
    """A ``subgraph``: a named box around some nodes (layout only; it never gates anything).

    ``parent`` is the enclosing group; ``direction`` is the group's own ``direction`` line.
    """

    id: str = Field(min_length=1)
    title: str
    parent: str | None = None
    direction: Literal["TB", "BT", "LR", "RL"] | None = None


class Plan(Record):
    direction: Direction
    nodes: tuple[PlanNode, ...]
    edges: tuple[PlanEdge, ...]
    # Parents before children (pre-order), so rendering and re-parsing keep the order.
    groups: tuple[PlanGroup, ...] = ()


class ApprovedPlan(Record):
    """The plan the learner approved: the latest ``plan_init`` call whose output approves it."""

    tool_call_id: str = Field(min_length=1)
    title: str
    plan: Plan
