"""A plan back to mermaid: ``parse_plan(render_mermaid(plan)).plan == plan`` for every plan the
parser produces (a property test holds us to it).

Layout of the output: the header; every node declared once, in plan order, at the top level
(so the order and labels come back exactly); one block per subgraph listing its members by id,
nested as the groups are; then the edges in order. Labels are always quoted.
"""

from __future__ import annotations

from studyhall.core.classroom.plan_scan import is_id
from studyhall.core.contracts.plan import NodeShape, Plan, PlanGroup, PlanNode

_BRACKETS: dict[NodeShape, tuple[str, str]] = {
    "rect": ("[", "]"),
    "round": ("(", ")"),
    "circle": ("((", "))"),
    "diamond": ("{", "}"),
    "hexagon": ("{{", "}}"),
    "stadium": ("([", "])"),
    "subroutine": ("[[", "]]"),
}
_OPS = {"arrow": "-->", "open": "---", "dotted": "-.->", "thick": "==>"}
_INDENT = "    "


def quote(label: str) -> str:
    """A label as a mermaid string. ``"`x`"`` would read back as markdown (backticks dropped),
    so a label that itself starts and ends with a backtick gets one more pair; a label can
    never hold ``"`` (the parser cannot produce one), so it is written as mermaid's ``#quot;``.
    An empty label is written ``" "`` (mermaid has no empty string; labels are trimmed)."""
    label = label.replace('"', "#quot;")
    if len(label) >= 2 and label[0] == "`" and label[-1] == "`":
        label = f"`{label}`"
    return f'"{label or " "}"'


def _node(node: PlanNode) -> str:
    if node.shape == "rect" and node.label == node.id:
        return node.id
    opener, closer = _BRACKETS[node.shape]
    return f"{node.id}{opener}{quote(node.label)}{closer}"


def _group_header(group: PlanGroup) -> str:
    if is_id(group.id):
        return f"subgraph {group.id}[{quote(group.title)}]"
    # An id that is not a plain id comes from a one-word quoted title: write it back that way.
    return f"subgraph {quote(group.title)}"


def render_mermaid(plan: Plan) -> str:
    lines = [f"flowchart {plan.direction}"]
    lines += [_INDENT + _node(n) for n in plan.nodes]
    children: dict[str | None, list[PlanGroup]] = {}
    for g in plan.groups:
        children.setdefault(g.parent, []).append(g)
    members: dict[str, list[str]] = {}
    for n in plan.nodes:
        if n.group is not None:
            members.setdefault(n.group, []).append(n.id)

    def block(group: PlanGroup, depth: int) -> None:
        pad = _INDENT * depth
        lines.append(pad + _group_header(group))
        if group.direction is not None:
            lines.append(f"{pad}{_INDENT}direction {group.direction}")
        lines.extend(f"{pad}{_INDENT}{m}" for m in members.get(group.id, []))
        for child in children.get(group.id, []):
            block(child, depth + 1)
        lines.append(pad + "end")

    for root in children.get(None, []):
        block(root, 1)
    for e in plan.edges:
        text = f"|{quote(e.label)}|" if e.label else ""
        lines.append(f"{_INDENT}{e.source} {_OPS[e.kind]}{text} {e.target}")
    return "\n".join(lines) + "\n"
