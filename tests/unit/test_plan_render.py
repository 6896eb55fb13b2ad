"""Rendering a plan to mermaid and parsing it back gives the same plan."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from studyhall.core.classroom.plan_parser import parse_plan
from studyhall.core.classroom.plan_render import quote, render_mermaid
from studyhall.core.contracts.plan import Plan, PlanEdge, PlanGroup, PlanNode

_KEYWORDS = {"end", "subgraph", "graph", "flowchart", "style", "classDef", "class", "linkStyle",
             "click", "call", "href", "accTitle", "accDescr"}

_id_chars = st.characters(categories=("Lu", "Ll", "Lo", "Nd"))
node_ids = st.one_of(
    st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_]{0,5}(-[a-z0-9]{1,3})?(\.[a-z]{1,3})?", fullmatch=True),
    st.text(alphabet=_id_chars, min_size=1, max_size=4),
).filter(lambda s: s not in _KEYWORDS and not s.startswith("grp"))

# Anything the parser can produce: no '"' (mermaid strings cannot hold one), no control
# characters, trimmed. Brackets, pipes, '%%', ';', arrows, backticks and new lines included.
_label_chars = st.one_of(
    st.characters(blacklist_characters='"', blacklist_categories=("Cs", "Cc")),
    st.sampled_from(list("\n`[](){}|;%-><&#:")),
)
_text = st.text(alphabet=_label_chars, max_size=30)
# Backtick-wrapped labels are the one case needing care (they look like markdown strings).
labels = st.one_of(_text, _text.map(lambda s: f"`{s}`")).map(str.strip)


@st.composite
def plans(draw: st.DrawFn) -> Plan:
    ids = draw(st.lists(node_ids, max_size=8, unique=True))
    group_count = draw(st.integers(0, 3))
    group_ids = [f"grp{i}" for i in range(group_count)]
    parents = [draw(st.sampled_from([None, *group_ids[:i]])) for i in range(group_count)]
    groups = [
        PlanGroup(
            id=gid,
            title=draw(labels),
            parent=parents[i],
            direction=draw(st.sampled_from([None, "TB", "BT", "LR", "RL"])),
        )
        for i, gid in enumerate(group_ids)
    ]
    nodes = [
        PlanNode(
            id=node_id,
            label=draw(st.one_of(labels, st.just(node_id))),
            shape=draw(st.sampled_from(
                ["rect", "round", "circle", "diamond", "hexagon", "stadium", "subroutine"]
            )),
            group=draw(st.sampled_from([None, *group_ids])),
        )
        for node_id in ids
    ]
    edges: list[PlanEdge] = []
    if len(ids) >= 2:
        pairs = draw(st.lists(
            st.tuples(st.integers(0, len(ids) - 1), st.integers(0, len(ids) - 1))
            .filter(lambda p: p[0] < p[1]),  # forward edges only: always a DAG
            max_size=10,
        ))
        for a, b in pairs:
            label = draw(st.one_of(st.none(), labels.filter(bool)))
            kind = draw(st.sampled_from(["arrow", "open", "dotted", "thick"]))
            edges.append(PlanEdge.model_validate(
                {"from": ids[a], "to": ids[b], "label": label, "kind": kind}
            ))
    return Plan(
        direction=draw(st.sampled_from(["TD", "TB", "LR", "RL", "BT"])),
        nodes=tuple(nodes),
        edges=tuple(edges),
        groups=_preorder(groups),
    )


def _preorder(groups: list[PlanGroup]) -> tuple[PlanGroup, ...]:
    """The parser lists groups parents-first; so must a generated plan to compare equal."""
    out: list[PlanGroup] = []

    def visit(parent: str | None) -> None:
        for g in groups:
            if g.parent == parent:
                out.append(g)
                visit(g.id)

    visit(None)
    return tuple(out)


@settings(max_examples=200, deadline=None)
@given(plans())
def test_render_then_parse_gives_the_same_plan(plan: Plan) -> None:
    text = render_mermaid(plan)
    parsed = parse_plan(text)
    assert parsed.errors == [], (text, [str(e) for e in parsed.errors])
    assert parsed.plan == plan, text


SAMPLES = [
    "graph TD;A(( ));B((Test));C;style A background:#fff;style D border:1px solid red;",
    "flowchart TB\n subgraph B\n c\n end\n a-->c\n subgraph A\n direction LR\n b-->B\n a\n end",
    'graph TD;A-->B;subgraph "title in quotes";c-->d;end;subgraph "One"\ne\nend',
    'flowchart LR\nsubgraph "`**Two**`"\n  c("`The **cat**\n in the hat`") -- "`1o`" --> d\nend',
    "graph LR\nA[\"``ticks``\"] -->|`x`| B[`y`] -. dotted .-> C{{\"#quot;hi#quot;\"}}",
]


@pytest.mark.parametrize("text", SAMPLES)
def test_parsed_plans_survive_a_round_trip(text: str) -> None:
    plan = parse_plan(text).plan
    assert plan is not None
    assert parse_plan(render_mermaid(plan)).plan == plan


def test_render_is_readable_mermaid() -> None:
    plan = parse_plan(
        "flowchart LR\nA[Intro] --> B(Paths)\nsubgraph core[Core]\nB\nend\nB -->|then| C"
    ).plan
    assert plan is not None
    assert render_mermaid(plan) == (
        "flowchart LR\n"
        '    A["Intro"]\n'
        '    B("Paths")\n'
        "    C\n"
        '    subgraph core["Core"]\n'
        "        B\n"
        "    end\n"
        "    A --> B\n"
        '    B -->|"then"| C\n'
    )


@pytest.mark.parametrize(
    ("label", "written"),
    [("plain", '"plain"'), ("", '" "'), ("`code`", '"``code``"'), ('say "hi"', '"say #quot;hi#quot;"')],
)
def test_quote(label: str, written: str) -> None:
    assert quote(label) == written


def test_a_rich_hand_built_plan_round_trips() -> None:
    """Nested groups, a node in each, labelled edges of every kind, awkward labels."""
    plan = Plan(
        direction="RL",
        nodes=(
            PlanNode(id="a", label="a"),
            PlanNode(id="b-1", label="", shape="circle", group="grp0"),
            PlanNode(id="c.x", label="`tick`", shape="hexagon", group="grp1"),
            PlanNode(id="Ω", label="multi\nline | [x] %% ; -->", shape="stadium", group="grp2"),
        ),
        edges=tuple(
            PlanEdge.model_validate({"from": s, "to": t, "label": label, "kind": kind})
            for s, t, label, kind in [
                ("a", "b-1", "first", "arrow"), ("b-1", "c.x", None, "open"),
                ("a", "c.x", "``", "dotted"), ("c.x", "Ω", "end", "thick"),
            ]
        ),
        groups=(
            PlanGroup(id="grp0", title="Outer", direction="LR"),
            PlanGroup(id="grp1", title="", parent="grp0"),
            PlanGroup(id="grp2", title="Sibling `x`"),
        ),
    )
    assert parse_plan(render_mermaid(plan)).plan == plan
