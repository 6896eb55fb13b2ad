"""The mind map builder: whatever labels and depth a writer sends, the mermaid parses (with the
plan-tree parser), shows every label exactly (after mermaid's entity decoding), stays within the
depth limit and counts what it left out."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from studyhall.core.classroom.plan_parser import parse_plan
from studyhall.core.workbench.mind_map import (
    MAX_DEPTH,
    MAX_LABEL,
    MindNode,
    count_ideas,
    from_dict,
    grow,
    map_label,
    outline,
    render_mermaid,
)

HOSTILE = [
    'say "hi" and \'bye\'', "a[b](c){d}|e|", "line one\nline two\r\n\tend", "x" * 500,
    "`code`", "#quot; is not a quote", "<script>alert(1)</script>", "end", "--> B", "",
    "broken \ud800 surrogate", "%%{init: {}}%%", "C# and F#; #35;", "subgraph", "  \n ",
    "Ünïcödé — “curly” ‘quotes’ …", "a\x00b\x1bc",
]
_ENTITIES = {"quot": '"', "lt": "<", "gt": ">", "35": "#"}


@dataclass(frozen=True)
class Listed:
    id: str
    label: str
    parent: str | None = None
    node_id: str | None = None


def shown(label: str) -> str:
    """What mermaid displays for a parsed label: its entities decoded (one pass, as mermaid)."""
    return re.sub(r"#(\w+);", lambda m: _ENTITIES.get(m.group(1), m.group(0)), label)


def parsed(mermaid: str) -> tuple[list[str], list[tuple[str, str]]]:
    result = parse_plan(mermaid)
    assert result.errors == [], (mermaid, [str(e) for e in result.errors])
    assert result.plan is not None
    return ([n.label for n in result.plan.nodes],
            [(e.source, e.target) for e in result.plan.edges])


def test_hostile_labels_parse_and_show_exactly_what_was_meant() -> None:
    ideas = [Listed(f"b{n}", label) for n, label in enumerate(HOSTILE)]
    grown = grow('The "centre" [of] it', ideas)
    assert grown.problems == [] and grown.left_out == 0
    mermaid = render_mermaid(grown.root)
    assert mermaid.startswith("flowchart LR\n")
    labels, edges = parsed(mermaid)
    expected = [map_label('The "centre" [of] it')] + [map_label(x) for x in HOSTILE]
    assert [shown(x).strip() for x in labels] == [e.strip() for e in expected]
    assert edges == [("m0", f"m{n}") for n in range(1, len(HOSTILE) + 1)]
    for label in expected:
        assert "\n" not in label and len(label) <= MAX_LABEL
    assert map_label("x" * 500) == "x" * (MAX_LABEL - 1) + "…"
    assert "<script>" not in mermaid and '"hi"' not in mermaid


def test_a_map_ten_levels_deep_is_cut_at_the_limit_and_counted() -> None:
    chain = [Listed("d1", "level 1")] + [Listed(f"d{n}", f"level {n}", f"d{n - 1}") for n in range(2, 11)]
    grown = grow("centre", chain)
    assert grown.problems == [] and grown.left_out == 10 - MAX_DEPTH
    assert count_ideas(grown.root) == MAX_DEPTH
    labels, edges = parsed(render_mermaid(grown.root))
    assert labels == ["centre"] + [f"level {n}" for n in range(1, MAX_DEPTH + 1)]
    assert len(edges) == MAX_DEPTH
    # A tree built by hand (not grown) is cut the same way when drawn.
    deep = MindNode("leaf")
    for n in range(10):
        deep = MindNode(f"n{n}", None, (deep,))
    labels, _ = parsed(render_mermaid(deep))
    assert len(labels) == MAX_DEPTH + 1


def test_ideas_out_of_order_or_repeated_are_problems_for_the_writer() -> None:
    grown = grow("heaps", [Listed("a", "Shape"), Listed("b", "Order", parent="zz"), Listed("a", "Again"),
                           Listed("c", "Child", parent="a")])
    assert len(grown.problems) == 2
    assert "parent 'zz' is not an idea listed before it" in grown.problems[0]
    assert "'a' is used twice" in grown.problems[1]
    assert [c.label for c in grown.root.children] == ["Shape"]
    assert [c.label for c in grown.root.children[0].children] == ["Child"]


def test_shapes_and_round_trip_of_the_stored_tree() -> None:
    grown = grow("heaps", [Listed("a", "Shape", node_id="n_1"), Listed("b", "Complete", "a")])
    mermaid = render_mermaid(grown.root)
    assert '    m0(["heaps"])' in mermaid and '    m1("Shape")' in mermaid
    assert '    m2["Complete"]' in mermaid and "    m1 --> m2" in mermaid
    stored = grown.root.to_dict()
    assert stored == {"label": "heaps", "node_id": None, "children": [
        {"label": "Shape", "node_id": "n_1", "children": [
            {"label": "Complete", "node_id": None, "children": []}]}]}
    assert from_dict(stored) == grown.root
    assert outline(grown.root) == "- **heaps**\n  - Shape\n    - Complete"


@pytest.mark.parametrize("label", ["`x`", "``", "`"])
def test_backticks_never_turn_a_label_into_markdown(label: str) -> None:
    # mermaid (and the plan parser, like it) drops one pair of surrounding backticks (a
    # markdown string): one extra pair is written, so what is shown is the label itself.
    labels, _ = parsed(render_mermaid(MindNode(label)))
    assert labels == [label]
