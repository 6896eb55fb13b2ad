"""A mind map: the writer's flat list of ideas grown into a tree, drawn as mermaid by code.

The model never writes mermaid. It lists ideas (``id``, ``label``, ``parent``); this module
builds the tree and draws it as a ``flowchart LR`` under the plan-tree renderer's rules
(``core.classroom.plan_render``; the systems are independent, so the rules are restated here):
generated ids (``m0``, ``m1``...), every label quoted, ``"`` written as ``#quot;``, a label
wrapped in backticks wrapped once more (else mermaid reads it as markdown), every node declared
once in order, then the edges. Beyond the plan's rules, a map is read at a glance: labels are
one line of at most ``MAX_LABEL`` characters, ``#``/``<``/``>`` are written as entities (so a
label is never an entity or HTML), and ideas deeper than ``MAX_DEPTH`` are left out and counted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

MAX_DEPTH = 4  # levels below the centre
MAX_LABEL = 80  # characters of a label on the map
MAX_IDEAS = 60
_INDENT = "    "
_ENTITY_START = re.compile(r"#(?=\w+;)")


class Idea(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def parent(self) -> str | None: ...
    @property
    def node_id(self) -> str | None: ...


@dataclass(frozen=True)
class MindNode:
    label: str
    node_id: str | None = None
    children: tuple[MindNode, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "node_id": self.node_id,
                "children": [c.to_dict() for c in self.children]}


@dataclass
class Grown:
    root: MindNode
    problems: list[str] = field(default_factory=list)  # the writer must fix these
    left_out: int = 0  # ideas deeper than MAX_DEPTH (with their own children)


def map_label(text: str) -> str:
    """One printable line of at most ``MAX_LABEL`` characters (newlines, tabs, control
    characters and lone surrogates become spaces)."""
    flat = "".join(ch if ch.isprintable() else " " for ch in text)
    flat = " ".join(flat.split())
    return flat if len(flat) <= MAX_LABEL else flat[: MAX_LABEL - 1].rstrip() + "…"


def quote(label: str) -> str:
    """``label`` as a quoted mermaid string that shows exactly ``label``."""
    label = _ENTITY_START.sub("#35;", label)
    label = label.replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")
    if len(label) >= 2 and label[0] == "`" and label[-1] == "`":
        label = f"`{label}`"
    return f'"{label or " "}"'


def grow(center: str, ideas: Sequence[Idea], center_node: str | None = None) -> Grown:
    """The tree of ``ideas`` around ``center``: a parent must be listed before its children
    (``parent`` null = a main branch); problems say what to fix, too-deep ideas are counted."""
    problems: list[str] = []
    depth: dict[str, int] = {}
    kids: dict[str | None, list[Idea]] = {None: []}
    for n, idea in enumerate(ideas, start=1):
        if idea.id in depth:
            problems.append(f"idea {n}: the id {idea.id!r} is used twice; give every idea its "
                            "own id.")
            continue
        if idea.parent is not None and idea.parent not in depth:
            problems.append(f"idea {n} ({idea.id!r}): its parent {idea.parent!r} is not an idea "
                            "listed before it; list every parent before its children, or use "
                            "null for a main branch.")
            continue
        depth[idea.id] = 1 if idea.parent is None else depth[idea.parent] + 1
        kids.setdefault(idea.parent, []).append(idea)
        kids.setdefault(idea.id, [])
    left_out = sum(1 for d in depth.values() if d > MAX_DEPTH)

    def node(idea: Idea, level: int) -> MindNode:
        below = kids[idea.id] if level < MAX_DEPTH else []
        return MindNode(map_label(idea.label), idea.node_id,
                        tuple(node(c, level + 1) for c in below))

    root = MindNode(map_label(center), center_node, tuple(node(i, 1) for i in kids[None]))
    return Grown(root, problems, left_out)


def from_dict(data: dict[str, Any]) -> MindNode:
    """A stored tree back (what ``MindNode.to_dict`` wrote)."""
    return MindNode(str(data.get("label", "")), data.get("node_id"),
                    tuple(from_dict(c) for c in data.get("children") or []))


def render_mermaid(root: MindNode) -> str:
    """The map as a mermaid flowchart: the centre a stadium, main branches round, the rest boxes."""
    declared: list[str] = []
    edges: list[str] = []

    def walk(node: MindNode, level: int, parent: str | None) -> None:
        me = f"m{len(declared)}"
        opener, closer = ("([", "])") if level == 0 else ("(", ")") if level == 1 else ("[", "]")
        declared.append(f"{_INDENT}{me}{opener}{quote(map_label(node.label))}{closer}")
        if parent is not None:
            edges.append(f"{_INDENT}{parent} --> {me}")
        if level < MAX_DEPTH:
            for child in node.children:
                walk(child, level + 1, me)

    walk(root, 0, None)
    return "\n".join(["flowchart LR", *declared, *edges]) + "\n"


def outline(root: MindNode) -> str:
    """The map as an indented Markdown list (the centre first), for copying and printing."""
    lines = [f"- **{root.label}**"]

    def walk(node: MindNode, level: int) -> None:
        for child in node.children:
            lines.append(f"{'  ' * level}- {child.label}")
            walk(child, level + 1)

    walk(root, 1)
    return "\n".join(lines)


def count_ideas(root: MindNode) -> int:
    return sum(1 + count_ideas(c) for c in root.children)
