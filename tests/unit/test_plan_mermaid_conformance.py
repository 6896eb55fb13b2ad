"""Conformance with mermaid's own flowchart parser tests, for the subset Studyhall accepts.

Cases are ported from mermaid-js/mermaid ``packages/mermaid/src/diagrams/flowchart/parser/``
(``flow-arrows``, ``flow-edges``, ``flow-singlenode``, ``flow-text``, ``flow-style``,
``flow-lines``, ``flow-comments``, ``flow-vertice-chaining``, ``flow-direction``, ``flow``,
``flow-md-string`` and ``subgraph`` ``.spec.js``). Each asserts what the mermaid test asserts,
mapped onto our model: mermaid's ``square``/no type -> ``rect``; ``arrow_point`` -> ``arrow``,
``arrow_open`` -> ``open``, stroke ``dotted``/``thick`` with a point -> ``dotted``/``thick``;
an empty edge text ``''`` -> ``None``. Mermaid features outside the subset (cross/circle/two-way
edges, extra shapes, click) must be rejected with a line/column error, as the issue requires.

Known, deliberate differences: labels are kept as written (mermaid turns ``<`` into ``&lt;``
when rendering to HTML); ``&`` always joins nodes (mermaid lets ``A&B`` be one id); ids may
not contain ``/ # : , * \\ ! ? $ % ' +``.
"""

from __future__ import annotations

import pytest
from studyhall.core.classroom.plan_parser import parse_plan
from studyhall.core.contracts.plan import Plan


def ok(text: str) -> Plan:
    parsed = parse_plan(text)
    assert parsed.errors == [], [str(e) for e in parsed.errors]
    assert parsed.plan is not None
    return parsed.plan


def nodes(plan: Plan) -> dict[str, tuple[str, str]]:
    return {n.id: (n.label, n.shape) for n in plan.nodes}


def edges(plan: Plan) -> list[tuple[str, str, str | None, str]]:
    return [(e.source, e.target, e.label, e.kind) for e in plan.edges]


def group_of(plan: Plan) -> dict[str, str | None]:
    return {n.id: n.group for n in plan.nodes}


# --- flow-arrows.spec.js ----------------------------------------------------------------------

@pytest.mark.parametrize("text", ["graph TD;\nA-->B;", "graph TD;A --> B;", "graph TD\nA-->B\nB-->C"])
def test_arrows_nodes_and_edges(text: str) -> None:
    plan = ok(text)
    assert edges(plan)[0] == ("A", "B", None, "arrow")
    assert nodes(plan)["A"] == ("A", "rect")


@pytest.mark.parametrize(
    ("symbol", "direction"), [(">", "LR"), ("<", "RL"), ("^", "BT"), ("v", "TB")]
)
def test_arrows_direction_symbols(symbol: str, direction: str) -> None:
    plan = ok(f"graph {symbol};A-->B;")
    assert plan.direction == direction
    assert edges(plan) == [("A", "B", None, "arrow")]


def test_arrows_line_without_semicolon_and_a_style_line() -> None:
    plan = ok("graph TD\nA --> B\n style e red")
    assert edges(plan) == [("A", "B", None, "arrow")]
    assert {"A", "B"} <= set(nodes(plan))


def test_arrows_statements_without_semicolon() -> None:
    plan = ok("graph TD\nA-->B\nB-->C")
    assert edges(plan) == [("A", "B", None, "arrow"), ("B", "C", None, "arrow")]


# --- flow-edges.spec.js / flow-lines.spec.js -------------------------------------------------

@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("graph TD;A---B;", "open"),
        ("graph TD;A-->B;", "arrow"),
        ("graph TD;A-.->B;", "dotted"),
        ("graph TD;A==>B;", "thick"),
    ],
)
def test_edge_kinds(text: str, kind: str) -> None:
    assert edges(ok(text)) == [("A", "B", None, kind)]


def test_edges_multiple_labelled_open_edges() -> None:
    plan = ok("graph TD;A---|This is the 123 s text|B;\nA---|This is the second edge|B;")
    assert edges(plan) == [
        ("A", "B", "This is the 123 s text", "open"),
        ("A", "B", "This is the second edge", "open"),
    ]


@pytest.mark.parametrize("length", [1, 2, 3])
def test_edge_lengths(length: int) -> None:
    dash, eq, dot = "-" * length, "=" * length, "." * length
    assert edges(ok(f"graph TD;\nA -{dash}- B;")) == [("A", "B", None, "open")]
    assert edges(ok(f"graph TD;\nA -- Label -{dash}- B;")) == [("A", "B", "Label", "open")]
    assert edges(ok(f"graph TD;\nA -{dash}> B;")) == [("A", "B", None, "arrow")]
    assert edges(ok(f"graph TD;\nA -- Label -{dash}> B;")) == [("A", "B", "Label", "arrow")]
    assert edges(ok(f"graph TD;\nA ={eq}> B;")) == [("A", "B", None, "thick")]
    assert edges(ok(f"graph TD;\nA == Label ={eq}> B;")) == [("A", "B", "Label", "thick")]
    assert edges(ok(f"graph TD;\nA -{dot}-> B;")) == [("A", "B", None, "dotted")]
    assert edges(ok(f"graph TD;\nA -. Label {dot}-> B;")) == [("A", "B", "Label", "dotted")]


@pytest.mark.parametrize("keyword", ["graph", "flowchart", "style", "default", "linkStyle",
                                     "classDef", "class", "click", "end", "subgraph", "kitty"])
def test_edges_keywords_as_edge_text(keyword: str) -> None:
    assert edges(ok(f"graph TD;\nA -- {keyword} --> B;")) == [("A", "B", keyword, "arrow")]
    assert edges(ok(f"graph TD;\nA == {keyword} ==> B;")) == [("A", "B", keyword, "thick")]
    assert edges(ok(f"graph TD;\nA -. {keyword} .-> B;")) == [("A", "B", keyword, "dotted")]


@pytest.mark.parametrize(
    "text",
    [
        "graph TD;A--xB;",  # flow-edges: arrow_cross
        "graph TD;A--oB;",  # flow-edges: arrow_circle
        "graph TD;\nA <--> B;",  # flow-edges: double_arrow_point
        "graph TD;\nA <-- text --> B;",
        "graph TD;\nA === B;",  # thick without an arrow
        "graph TD;\nA -.- B;",  # dotted without an arrow
        "graph TD;A--x|textNoSpace|B;",  # flow-text
        "graph TD;A--o|text space|B;\n B-->|more text with space|C;",
    ],
)
def test_edges_outside_the_subset_are_rejected(text: str) -> None:
    parsed = parse_plan(text)
    assert parsed.plan is None
    assert "edge" in parsed.errors[0].message


# --- flow-lines.spec.js ----------------------------------------------------------------------

@pytest.mark.parametrize(
    "styling",
    [
        "linkStyle default interpolate basis",
        "linkStyle 0 interpolate basis\nlinkStyle 1 interpolate cardinal",
        "linkStyle 0,1 interpolate basis",
        "linkStyle default interpolate basis stroke-width:1px;",
        "linkStyle 0 interpolate basis stroke-width:1px;\nlinkStyle 1 interpolate cardinal stroke-width:1px;",
    ],
)
def test_lines_link_styles_are_accepted_and_ignored(styling: str) -> None:
    plan = ok("graph TD\nA-->B\nA-->C\n" + styling)
    assert edges(plan) == [("A", "B", None, "arrow"), ("A", "C", None, "arrow")]


# --- flow-singlenode.spec.js -----------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "node", "label", "shape"),
    [
        ("graph TD;A;", "A", "A", "rect"),
        ("graph TD;A ;", "A", "A", "rect"),
        ("graph TD;a[A];", "a", "A", "rect"),
        ("graph TD;a((A));", "a", "A", "circle"),
        ("graph TD;a(A);", "a", "A", "round"),
        ("graph TD;a{A};", "a", "A", "diamond"),
        ("graph TD;a{A}   ;", "a", "A", "diamond"),
        ("graph TD;a{A <br> end};", "a", "A <br> end", "diamond"),
        ("graph TD;a{{A}};", "a", "A", "hexagon"),
        ("graph TD;a{{A <br> end}};", "a", "A <br> end", "hexagon"),
        ("graph TD;a(A <br> end);", "a", "A <br> end", "round"),
        ("graph TD;id1;", "id1", "id1", "rect"),
        ("graph TD;1;", "1", "1", "rect"),
        ("graph TD;1id;", "1id", "1id", "rect"),
        ("graph TD;i-d;", "i-d", "i-d", "rect"),
        ("graph TD;i_d;", "i_d", "i_d", "rect"),
    ],
)
def test_single_nodes(text: str, node: str, label: str, shape: str) -> None:
    plan = ok(text)
    assert nodes(plan) == {node: (label, shape)}
    assert plan.edges == ()


def test_single_node_with_a_digit_in_a_subgraph() -> None:
    plan = ok('graph TD;subgraph "hello";1;end;')
    assert nodes(plan) == {"1": ("1", "rect")}
    assert group_of(plan) == {"1": "hello"}


@pytest.mark.parametrize("keyword", ["graph", "flowchart", "style", "default", "linkStyle",
                                     "interpolate", "classDef", "class", "href", "call", "click",
                                     "_self", "_blank", "end", "subgraph"])
def test_single_node_ids_containing_keywords(keyword: str) -> None:
    assert set(nodes(ok(f"graph TD;a-{keyword}-node;"))) == {f"a-{keyword}-node"}
    assert set(nodes(ok(f"graph TD;a.{keyword}.node;"))) == {f"a.{keyword}.node"}
    assert set(nodes(ok(f"graph TD;a_{keyword}_node;"))) == {f"a_{keyword}_node"}
    plan = ok(f"graph TD;node_{keyword};node.{keyword};node-{keyword};")
    assert nodes(plan)[f"node-{keyword}"] == (f"node-{keyword}", "rect")
    assert set(nodes(plan)) == {f"node_{keyword}", f"node.{keyword}", f"node-{keyword}"}


def test_single_node_beginning_with_a_working_keyword() -> None:
    plan = ok("graph TD; default.node;default-node;")
    assert set(nodes(plan)) == {"default.node", "default-node"}


@pytest.mark.parametrize("text", ["graph TD;a>A];", "graph TD;a(((A)));", "graph TD;a[(A)];",
                                  "graph TD;A(-this is an ellipse-)-->B", "graph TD;a[/A/];"])
def test_single_node_shapes_outside_the_subset_are_rejected(text: str) -> None:
    parsed = parse_plan(text)
    assert parsed.plan is None
    assert "unsupported node shape" in parsed.errors[0].message


# --- flow-text.spec.js -----------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "label", "kind"),
    [
        ("graph TD;A--text including URL space and send-->B;", "text including URL space and send", "arrow"),
        ("graph TD;A-- text including URL space and send -->B;", "text including URL space and send", "arrow"),
        ("graph TD;A-- test text with == -->B;", "test text with ==", "arrow"),
        ("graph TD;A-. test text with == .->B;", "test text with ==", "dotted"),
        ("graph TD;A== test text with - ==>B;", "test text with -", "thick"),
        ("graph TD;A-->|text with / should work|B;", "text with / should work", "arrow"),
    ],
)
def test_text_on_edges(text: str, label: str, kind: str) -> None:
    assert edges(ok(text)) == [("A", "B", label, kind)]


def test_text_quoted_edge_text() -> None:
    plan = ok('graph TD;V-- "test string()" -->a[v]')
    assert edges(plan) == [("V", "a", "test string()", "arrow")]
    assert nodes(plan)["a"] == ("v", "rect")


@pytest.mark.parametrize("keyword", ["graph", "flowchart", "style", "default", "linkStyle",
                                     "interpolate", "classDef", "class", "href", "call", "click",
                                     "_self", "end", "subgraph", "kitty"])
@pytest.mark.parametrize(
    ("opener", "closer", "shape"),
    [("[", "]", "rect"), ("(", ")", "round"), ("{", "}", "diamond"), ("([", "])", "stadium"),
     ("[[", "]]", "subroutine"), ("{{", "}}", "hexagon")],
)
def test_text_keywords_in_vertices(keyword: str, opener: str, closer: str, shape: str) -> None:
    plan = ok(f"graph TD;A_{keyword}_node-->B{opener}This node has a {keyword} as text{closer};")
    assert nodes(plan)["B"] == (f"This node has a {keyword} as text", shape)
    assert edges(plan) == [(f"A_{keyword}_node", "B", None, "arrow")]


@pytest.mark.parametrize(
    ("text", "node", "label", "shape"),
    [
        ("graph TD;A-->C(Chimpansen hoppar);", "C", "Chimpansen hoppar", "round"),
        ("graph TD;A-->C{Chimpansen hoppar åäö-ÅÄÖ};", "C", "Chimpansen hoppar åäö-ÅÄÖ", "diamond"),
        ("graph TD;A-->C(Chimpansen hoppar åäö  <br> -  ÅÄÖ);", "C", "Chimpansen hoppar åäö  <br> -  ÅÄÖ", "round"),
        ("graph TD;A-->C(Начало);", "C", "Начало", "round"),
        ("graph TD;A-->C(c:\\windows);", "C", "c:\\windows", "round"),
        ("graph TD;A-->C(some CAPS);", "C", "some CAPS", "round"),
        ("graph TD;A[chimpansen hoppar]-->C;", "A", "chimpansen hoppar", "rect"),
        ("graph TD;A[chimpansen hoppar] --> C;", "A", "chimpansen hoppar", "rect"),
        ("graph TD;A[chimpansen_hoppar] --> C;", "A", "chimpansen_hoppar", "rect"),
        ('graph TD;A["chimpansen hoppar ()[]"] --> C;', "A", "chimpansen hoppar ()[]", "rect"),
        ("graph TD;A((chimpansen hoppar))-->C;", "A", "chimpansen hoppar", "circle"),
        ("graph TD;A(chimpansen hoppar)-->C;", "A", "chimpansen hoppar", "round"),
    ],
)
def test_text_in_vertices(text: str, node: str, label: str, shape: str) -> None:
    assert nodes(ok(text))[node] == (label, shape)


@pytest.mark.parametrize("chars", ["?", "éèêàçô", ",.?!+-*"])
def test_text_special_characters_in_vertex_and_edge(chars: str) -> None:
    plan = ok(f"graph TD;A({chars})-->|{chars}|C;")
    assert nodes(plan)["A"] == (chars, "round")
    assert edges(plan) == [("A", "C", chars, "arrow")]


# --- flow.spec.js ----------------------------------------------------------------------------

def test_flow_trailing_whitespace_after_statements() -> None:
    plan = ok("graph TD;\n\n\n %% Comment\n A-->B; \n B-->C;")
    assert edges(plan) == [("A", "B", None, "arrow"), ("B", "C", None, "arrow")]


@pytest.mark.parametrize(
    ("text", "pair"),
    [
        ("graph TD\nendpoint --> sender", ("endpoint", "sender")),
        ("graph TD\nblend --> monograph", ("blend", "monograph")),
        ("graph TD\ndefault --> monograph", ("default", "monograph")),
        ("graph LR\n      __proto__ --> A;", ("__proto__", "A")),
        ("graph LR\n      constructor --> A;", ("constructor", "A")),
    ],
)
def test_flow_node_ids_with_keyword_substrings(text: str, pair: tuple[str, str]) -> None:
    assert edges(ok(text)) == [(*pair, None, "arrow")]


@pytest.mark.parametrize("char", [".", "Start 103a.a1", ":", ",", "a-b", "+", "*", "&", "<"])
def test_flow_special_characters_in_a_round_label(char: str) -> None:
    plan = ok(f"graph TD;A({char})-->B;")
    assert nodes(plan)["A"] == (char, "round")


def test_flow_direction_in_node_ids_and_numbers_as_labels() -> None:
    assert set(nodes(ok("graph TD;\n  node1TB\n"))) == {"node1TB"}
    assert set(nodes(ok('graph TB;subgraph "number as labels";1;end;'))) == {"1"}


def test_flow_click_is_outside_the_subset() -> None:
    parsed = parse_plan('graph LR\n      click A callback "tooltip";')
    assert parsed.plan is None and "click" in str(parsed.errors[0])


# --- flow-comments.spec.js -------------------------------------------------------------------

@pytest.mark.parametrize(
    "text",
    [
        "graph TD;\n%% Comment\n A-->B;",
        "%% Comment\ngraph TD;\n A-->B;",
        "graph TD;\n A-->B\n %% Comment at the end\n",
        "graph TD;\n A-->B\n%% Comment",
        "graph TD;\n A-->B\n%% Comment\n\n\n",
        "graph TD;\n A-->B",
        "graph TD;\n A-->B\n\n",
        "graph TD;\n\n\n %% Comment\n A-->B;",
        "graph TD;\n\n\n %% Test od>Odd shape]-->|Two line<br>edge comment|ro;\n A-->B;",
    ],
)
def test_comments(text: str) -> None:
    plan = ok(text)
    assert set(nodes(plan)) == {"A", "B"}
    assert edges(plan) == [("A", "B", None, "arrow")]


# --- flow-style.spec.js ----------------------------------------------------------------------

def test_style_declares_the_node_it_styles() -> None:
    assert set(nodes(ok("graph TD;style Q background:#fff;"))) == {"Q"}
    assert set(nodes(ok("graph TD;style R background:#fff,border:1px solid red;"))) == {"R"}
    plan = ok("graph TD;S-->T;\nstyle S background:#aaa;\nstyle T background:#bbb,border:1px solid red;")
    assert edges(plan) == [("S", "T", None, "arrow")]


def test_style_keeps_node_label_text_when_a_style_is_applied() -> None:
    plan = ok("graph TD;A(( ));B((Test));C;style A background:#fff;style D border:1px solid red;")
    assert nodes(plan) == {
        "A": ("", "circle"), "B": ("Test", "circle"), "C": ("C", "rect"), "D": ("D", "rect")
    }


@pytest.mark.parametrize(
    "text",
    [
        "graph TD;classDef exClass background:#bbb,border:1px solid red;",
        "graph TD;classDef firstClass,secondClass background:#bbb,border:1px solid red;",
        "graph TD;classDef exClass background:#bbb,border:1.5px solid red;",
        "graph TD;classDef exClass background:  #bbb,border:1.5px solid red;",
        "graph TD\nA-->B\nclassDef exClass font-style:bold;",
        "graph TD\nA-->B\nclassDef exClass fill:#f96,stroke:#333,stroke-width:4px,font-size:50%,font-style:bold;",
    ],
)
def test_style_class_definitions_are_accepted(text: str) -> None:
    ok(text)


@pytest.mark.parametrize(
    ("statement", "node", "label"),
    [
        ("graph TD;\nclassDef exClass background:#bbb,border:1px solid red;\na-->b;\nclass a exClass;", "b", "b"),
        ("graph TD;\nclassDef exClass background:#bbb,border:1px solid red;\na_a-->b_b;\nclass a_a exClass;", "b_b", "b_b"),
        ("graph TD;\nclassDef exClass background:#bbb,border:1px solid red;\na-->b[test]:::exClass;\n", "b", "test"),
        ("graph TD;\nclassDef exClass background:#bbb,border:1px solid red;\nb[test]:::exClass;\n", "b", "test"),
        ("graph TD;\nclassDef exClass background:#bbb,border:1px solid red;\nA[test]:::exClass-->B[test2];\n", "B", "test2"),
        ("graph TD;\nclassDef exClass background:#bbb,border:1px solid red;\na-->b[1 a a text!.]:::exClass;\n", "b", "1 a a text!."),
        ("graph TD;\nclassDef exClass background:#bbb,border:1px solid red;\na-->b;\nclass a,b exClass;", "b", "b"),
    ],
)
def test_style_classes_applied_to_vertices(statement: str, node: str, label: str) -> None:
    assert nodes(ok(statement))[node] == (label, "rect")


def test_style_link_style_indices_must_exist() -> None:
    many = "graph TD\n" + "".join(f"A-->B{i}\n" for i in range(1, 13))
    ok(many + "linkStyle 10 stroke-width:1px;")
    ok(many + "linkStyle 10,11 stroke-width:1px;")
    ok("graph TD\n    A-->B\n    linkStyle 0 stroke-width:1px;")
    parsed = parse_plan("graph TD\n    A-->B\n    linkStyle 1 stroke-width:1px;")
    assert parsed.plan is None
    assert str(parsed.errors[0]).startswith("line 3, col 15: linkStyle 1 names an edge")


def test_style_multiple_vertices_with_classes() -> None:
    plan = ok("""
    graph TD
      classDef C1 stroke-dasharray:4
      classDef C2 stroke-dasharray:6
      A & B:::C1 & D:::C1 --> E:::C2
    """)
    assert edges(plan) == [(s, "E", None, "arrow") for s in ("A", "B", "D")]


# --- flow-vertice-chaining.spec.js -----------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("\n    graph TD\n      A-->B-->C;\n    ", [("A", "B"), ("B", "C")]),
        ("\n    graph TD\n      A & B --> C;\n    ", [("A", "C"), ("B", "C")]),
        ("\n    graph TD\n      A-->B & C;\n    ", [("A", "B"), ("A", "C")]),
        ("\n    graph TD\n      A & B--> C & D;\n    ", [("A", "C"), ("A", "D"), ("B", "C"), ("B", "D")]),
        ("\n    graph TD\n      A --> B & B2 & C --> D2;\n    ",
         [("A", "B"), ("A", "B2"), ("A", "C"), ("B", "D2"), ("B2", "D2"), ("C", "D2")]),
    ],
)
def test_vertex_chaining(text: str, expected: list[tuple[str, str]]) -> None:
    assert edges(ok(text)) == [(s, t, None, "arrow") for s, t in expected]


def test_vertex_chaining_with_extra_info_in_statements() -> None:
    plan = ok("""
    graph TD
      A[ h ] -- hello --> B[" test "]:::exClass & C --> D;
      classDef exClass background:#bbb,border:1px solid red;
    """)
    assert edges(plan) == [
        ("A", "B", "hello", "arrow"), ("A", "C", "hello", "arrow"),
        ("B", "D", None, "arrow"), ("C", "D", None, "arrow"),
    ]
    assert nodes(plan)["A"] == ("h", "rect") and nodes(plan)["B"] == ("test", "rect")


# --- subgraph.spec.js ------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "gid", "title", "members"),
    [
        ("graph TB\nsubgraph One\n\ta1-->a2\nend", "One", "One", {"a1", "a2"}),
        ("graph TB\nsubgraph One\n\ta1-->a2-->a3\nend", "One", "One", {"a1", "a2", "a3"}),
        ('graph TB\nsubgraph "Some Title"\n\ta1-->a2\nend', "subGraph0", "Some Title", {"a1", "a2"}),
        ("graph TB\nsubgraph some-id[Some Title]\n\ta1-->a2\nend", "some-id", "Some Title", {"a1", "a2"}),
        ("graph TD\n    A[Christmas] -->|Get money| B(Go shopping)\n    subgraph 1test\n    A\n    end",
         "1test", "1test", {"A"}),
        ('graph TD;A-->B;subgraph "title in quotes";c-->d;end;', "subGraph0", "title in quotes", {"c", "d"}),
        ("graph TD;A-->B;subgraph old style that is broken;c-->d;end;", "subGraph0",
         "old style that is broken", {"c", "d"}),
        ("graph TD;A-->B;subgraph a-b-c;c-->d;end;", "a-b-c", "a-b-c", {"c", "d"}),
        ("graph TD;A-->B;subgraph uid1[text of doom];c-->d;end;", "uid1", "text of doom", {"c", "d"}),
        ('graph TD;A-->B;subgraph uid2["text of doom"];c-->d;end;', "uid2", "text of doom", {"c", "d"}),
        ("graph TD;A-->B;subgraph uid2[textofdoom];c-->d;end;", "uid2", "textofdoom", {"c", "d"}),
        ("graph TD\nA-->B\nsubgraph myTitle\n\n c-->d \nend\n", "myTitle", "myTitle", {"c", "d"}),
        ("graph TD\nA-->B\nsubgraph myTitle   \n\n    c-->d \nend\n", "myTitle", "myTitle", {"c", "d"}),
        ("graph TD\nA-->B\nsubgraph myTitle\nc-->d\nend;", "myTitle", "myTitle", {"c", "d"}),
        ("graph TD\nA-->B\nsubgraph myTitle\nc-- text -->d\nd-->e\n end;", "myTitle", "myTitle", {"c", "d", "e"}),
        ("graph TD\nA-->B\nsubgraph myTitle\na & b --> c & e\n end;", "myTitle", "myTitle", {"a", "b", "c", "e"}),
    ],
)
def test_subgraphs(text: str, gid: str, title: str, members: set[str]) -> None:
    plan = ok(text)
    assert [(g.id, g.title) for g in plan.groups] == [(gid, title)]
    assert {n for n, g in group_of(plan).items() if g == gid} == members


def test_subgraphs_nested() -> None:
    plan = ok(
        "graph TD\nA-->B\nsubgraph myTitle\n\n c-->d \n\n subgraph inner\n\n   e-->f \n end \n\n"
        " subgraph inner2\n\n   h-->i \n end \n\nend\n"
    )
    parents = {g.id: g.parent for g in plan.groups}
    assert parents == {"myTitle": None, "inner": "myTitle", "inner2": "myTitle"}
    assert group_of(plan)["e"] == "inner" and group_of(plan)["c"] == "myTitle"


@pytest.mark.parametrize(
    "text",
    [
        "flowchart TB\n    subgraph A\n    b-->B\n    a\n    end\n    a-->c\n    subgraph B\n      c\n    end",
        "flowchart TB\n    b-->B\n    a-->c\n    subgraph B\n      c\n    end\n    subgraph A\n        a\n        b\n        B\n    end",
        "flowchart TB\n    subgraph B\n      c\n    end\n    a-->c\n    subgraph A\n      b-->B\n      a\n    end",
    ],
)
def test_subgraphs_nested_by_reference(text: str) -> None:
    plan = ok(text)
    members_a = {n for n, g in group_of(plan).items() if g == "A"}
    assert group_of(plan)["c"] == "B"
    assert {"B", "b", "a"} <= members_a and "c" not in members_a
    assert {g.id: g.parent for g in plan.groups}["B"] == "A"


# --- flow-direction.spec.js ------------------------------------------------------------------

@pytest.mark.parametrize(
    ("body", "direction"),
    [
        ("    subgraph A\n      a --> b\n    end", None),
        ("    subgraph A\n      direction BT\n      a --> b\n    end", "BT"),
        ("    subgraph A\n      direction BT\n      a --> b\n      direction RL\n    end", "RL"),
    ],
)
def test_subgraph_direction(body: str, direction: str | None) -> None:
    plan = ok("flowchart TB\n" + body)
    assert [(g.id, g.direction) for g in plan.groups] == [("A", direction)]
    assert group_of(plan) == {"a": "A", "b": "A"}


def test_subgraph_directions_when_nested_by_reference() -> None:
    plan = ok(
        "flowchart TB\n    subgraph A\n      direction RL\n      b-->B\n      a\n    end\n"
        "    a-->c\n    subgraph B\n      direction LR\n      c\n    end"
    )
    assert {g.id: g.direction for g in plan.groups} == {"A": "RL", "B": "LR"}


# --- flow-md-string.spec.js ------------------------------------------------------------------

def test_markdown_strings_in_nodes_and_labels() -> None:
    plan = ok(
        'flowchart\nA["`The cat in **the** hat`"]-- "`The *bat* in the chat`" -->'
        'B["The dog in the hog"] -- "The rat in the mat" -->C;'
    )
    assert nodes(plan)["A"] == ("The cat in **the** hat", "rect")
    assert nodes(plan)["B"] == ("The dog in the hog", "rect")
    assert edges(plan) == [
        ("A", "B", "The *bat* in the chat", "arrow"), ("B", "C", "The rat in the mat", "arrow")
    ]


def test_markdown_strings_in_subgraphs() -> None:
    plan = ok(
        'flowchart LR\nsubgraph "One"\n  a("`The **cat**\n  in the hat`") -- "1o" --> '
        'b{{"`The **dog** in the hog`"}}\nend\nsubgraph "`**Two**`"\n  c("`The **cat**\n  in the '
        'hat`") -- "`1o **ipa**`" --> d("The dog in the hog")\nend'
    )
    assert [g.title for g in plan.groups] == ["One", "**Two**"]
    assert nodes(plan)["a"] == ("The **cat**\n  in the hat", "round")
    assert nodes(plan)["b"] == ("The **dog** in the hog", "hexagon")
    assert edges(plan)[1] == ("c", "d", "1o **ipa**", "arrow")
