"""The plan tree: a session's dependency map, authored once by the teacher (mermaid subset).

Statuses are derived from the transcript, never stored.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Record

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
    group: str | None = None  # the subgraph the node was declared in, if any


class PlanEdge(Record):
    source: str = Field(alias="from", min_length=1)
    target: str = Field(alias="to", min_length=1)
    label: str | None = None
    kind: EdgeKind = "arrow"


class Plan(Record):
    direction: Direction
    nodes: tuple[PlanNode, ...]
    edges: tuple[PlanEdge, ...]
