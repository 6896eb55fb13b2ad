"""Assembling a plan from parsed statements: nodes in first-mention order, edges, subgraphs.

Subgraph membership follows mermaid: a node (or an inner subgraph) mentioned by a statement
inside ``subgraph … end`` belongs to it, and a node belongs to the first subgraph that closes
with it (an inner one before its parent). Styling lines do not make anything a member.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from studyhall.core.classroom.plan_limits import MAX_EDGES, MAX_GROUPS, MAX_LABEL, MAX_NODES
from studyhall.core.classroom.plan_scan import PlanSyntaxError
from studyhall.core.classroom.plan_validate import EdgeAt, cycle_errors
from studyhall.core.contracts.plan import NodeShape, Plan, PlanEdge, PlanGroup, PlanNode

GroupDirection = str  # "TB" | "BT" | "LR" | "RL"


@dataclass
class NodeRef:
    """One mention of a node in a statement; ``shape`` is None for a bare id.

    The builder also keeps one per node id as that node's accumulated definition."""

    id: str
    pos: int
    label: str | None = None
    shape: NodeShape | None = None
    label_pos: int = 0


@dataclass
class _OpenGroup:
    id: str | None  # None: mermaid names it subGraphN when it closes
    title: str
    pos: int
    order: int  # opening order, for a stable output order
    members: list[str] = field(default_factory=list)
    direction: GroupDirection | None = None


@dataclass
class _ClosedGroup:
    id: str
    title: str
    pos: int
    order: int
    direction: GroupDirection | None


class PlanBuilder:
    """Collects the effects of well-formed statements; reports conflicts as it goes."""

    def __init__(self) -> None:
        self.errors: list[PlanSyntaxError] = []
        self.nodes: dict[str, NodeRef] = {}
        self.edges: list[EdgeAt] = []
        self.open: list[_OpenGroup] = []
        self.closed: list[_ClosedGroup] = []
        self.claimed: dict[str, str] = {}  # node or group id -> the group it belongs to
        self._closed_ids: set[str] = set()
        self._opened = 0
        self._too_many_edges = False

    # --- nodes and edges ------------------------------------------------------------------

    def mention(self, ref: NodeRef, *, member: bool = True) -> None:
        node = self.nodes.get(ref.id)
        if node is None:
            if len(self.nodes) == MAX_NODES:
                self.errors.append(
                    PlanSyntaxError(
                        ref.pos,
                        f"too many nodes: a plan has at most {MAX_NODES}; split it or merge steps",
                    )
                )
            node = self.nodes[ref.id] = NodeRef(ref.id, ref.pos)
        if ref.shape is not None and ref.label is not None:
            self._define(node, ref)
        if member and self.open:
            self.open[-1].members.append(ref.id)

    def _define(self, node: NodeRef, ref: NodeRef) -> None:
        assert ref.label is not None and ref.shape is not None
        if len(ref.label) > MAX_LABEL:
            self.errors.append(
                PlanSyntaxError(
                    ref.label_pos,
                    f"the label of node '{ref.id}' is {len(ref.label)} characters; the limit is "
                    f"{MAX_LABEL} — keep labels short and put details in the lesson",
                )
            )
        if node.shape is None:
            node.label, node.shape, node.label_pos = ref.label, ref.shape, ref.label_pos
        elif node.label != ref.label:
            self.errors.append(
                PlanSyntaxError(
                    ref.label_pos,
                    f"node '{ref.id}' already has the label \"{node.label}\"; here it is "
                    f'"{ref.label}" — give each node one label (refer to it later by its id alone)',
                )
            )
        elif node.shape != ref.shape:
            self.errors.append(
                PlanSyntaxError(
                    ref.label_pos,
                    f"node '{ref.id}' is already drawn as {node.shape}; here it is {ref.shape} — "
                    "give each node one shape",
                )
            )

    def link(self, sources: list[NodeRef], targets: list[NodeRef], edge: EdgeAt) -> None:
        for s in sources:
            for t in targets:
                if len(self.edges) == MAX_EDGES:
                    # Stop here: "a & b & … --> c & d & …" multiplies, and must not blow up.
                    if not self._too_many_edges:
                        self._too_many_edges = True
                        self.errors.append(
                            PlanSyntaxError(
                                edge.pos, f"too many edges: a plan has at most {MAX_EDGES}"
                            )
                        )
                    return
                self.edges.append(EdgeAt(s.id, t.id, edge.label, edge.kind, edge.pos))

    # --- subgraphs ------------------------------------------------------------------------

    def open_group(self, gid: str | None, title: str, pos: int) -> None:
        if len(title) > MAX_LABEL:
            self.errors.append(
                PlanSyntaxError(
                    pos, f"the subgraph title is {len(title)} characters; the limit is {MAX_LABEL}"
                )
            )
        if self._opened == MAX_GROUPS:
            self.errors.append(
                PlanSyntaxError(pos, f"too many subgraphs: a plan has at most {MAX_GROUPS}")
            )
        self.open.append(_OpenGroup(gid, title, pos, self._opened))
        self._opened += 1

    def set_direction(self, direction: GroupDirection) -> None:
        if self.open:  # at the top level mermaid ignores it, and so do we
            self.open[-1].direction = direction

    def close_group(self, pos: int) -> None:
        if not self.open:
            raise PlanSyntaxError(pos, "'end' without an open 'subgraph'")
        g = self.open.pop()
        gid = g.id if g.id is not None else f"subGraph{len(self.closed)}"
        if gid in self._closed_ids:
            self.errors.append(
                PlanSyntaxError(
                    g.pos, f"subgraph '{gid}' is defined twice; give each subgraph its own id"
                )
            )
        self._closed_ids.add(gid)
        self.closed.append(_ClosedGroup(gid, g.title, g.pos, g.order, g.direction))
        for member in g.members:
            self.claimed.setdefault(member, gid)
        if self.open:
            self.open[-1].members.append(gid)

    # --- the result -----------------------------------------------------------------------

    def finish(self, end_pos: int) -> None:
        for g in self.open:
            name = f"'{g.id}'" if g.id else f'"{g.title}"'
            self.errors.append(
                PlanSyntaxError(
                    g.pos, f"subgraph {name} is never closed: add 'end' after its last line"
                )
            )
        self.errors.extend(cycle_errors(list(self.nodes), self.edges))
        if len(self.closed) <= MAX_GROUPS:  # beyond that it is an error already; stay linear
            self.errors.extend(self._group_cycles())

    def _parent(self, gid: str) -> str | None:
        parent = self.claimed.get(gid)
        return None if parent == gid else parent

    def _group_cycles(self) -> list[PlanSyntaxError]:
        errors = []
        for g in self.closed:
            seen = [g.id]
            parent = self._parent(g.id)
            while parent is not None and parent not in seen:  # at most MAX_GROUPS steps
                seen.append(parent)
                parent = self._parent(parent)
            if parent == g.id:
                errors.append(
                    PlanSyntaxError(
                        g.pos, f"subgraphs {' and '.join(repr(s) for s in seen)} contain each other"
                    )
                )
        return errors

    def plan(self, direction: str) -> Plan:
        nodes = tuple(
            PlanNode(
                id=n.id,
                label=n.label if n.label is not None else n.id,
                shape=n.shape or "rect",
                group=self.claimed.get(n.id),
            )
            for n in self.nodes.values()
        )
        edges = tuple(
            PlanEdge(source=e.source, target=e.target, label=e.label, kind=e.kind)
            for e in self.edges
        )
        return Plan.model_validate(
            {"direction": direction, "nodes": nodes, "edges": edges, "groups": self._groups()}
        )

    def _groups(self) -> tuple[PlanGroup, ...]:
        """Pre-order (parents first, siblings in opening order): the order rendering writes."""
        by_order = sorted(self.closed, key=lambda g: g.order)
        children: dict[str | None, list[_ClosedGroup]] = {}
        for g in by_order:
            children.setdefault(self._parent(g.id), []).append(g)
        out: list[PlanGroup] = []
        stack = list(reversed(children.get(None, [])))
        while stack:
            g = stack.pop()
            out.append(
                PlanGroup.model_validate(
                    {
                        "id": g.id,
                        "title": g.title,
                        "parent": self._parent(g.id),
                        "direction": g.direction,
                    }
                )
            )
            stack.extend(reversed(children.get(g.id, [])))
        return tuple(out)
