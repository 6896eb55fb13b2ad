"""The plan parser: every accepted form, and every error with its line, column and wording."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from studyhall.core.classroom.plan_limits import (
    MAX_EDGES,
    MAX_ERRORS,
    MAX_GROUPS,
    MAX_LABEL,
    MAX_NODES,
    MAX_TEXT_BYTES,
)
from studyhall.core.classroom.plan_parser import PlanError, parse_plan
from studyhall.core.contracts.plan import Plan


def ok(text: str) -> Plan:
    parsed = parse_plan(text)
    assert parsed.errors == [], [str(e) for e in parsed.errors]
    assert parsed.plan is not None
    return parsed.plan


def errors(text: str) -> list[str]:
    parsed = parse_plan(text)
    assert parsed.plan is None
    return [str(e) for e in parsed.errors]


def only_error(text: str) -> str:
    found = errors(text)
    assert len(found) == 1, found
    return found[0]


# --- accepted forms ------------------------------------------------------------------------


def test_a_typical_teacher_plan() -> None:
    plan = ok(
        "flowchart TD\n"
        "    %% the session's map\n"
        "    V[Vertices and edges] --> P(Paths)\n"
        "    P --> C{Is it connected?}\n"
        '    C -->|"yes"| T([Trees])\n'
        "    C -- no --> F[[Forests]]\n"
        "    T & F ==> S{{Spanning trees}}\n"
        "    S -.-> X((Extra))\n"
        "    S --- N[Notes]\n"
    )
    assert plan.direction == "TD"
    assert [(n.id, n.label, n.shape) for n in plan.nodes] == [
        ("V", "Vertices and edges", "rect"),
        ("P", "Paths", "round"),
        ("C", "Is it connected?", "diamond"),
        ("T", "Trees", "stadium"),
        ("F", "Forests", "subroutine"),
        ("S", "Spanning trees", "hexagon"),
        ("X", "Extra", "circle"),
        ("N", "Notes", "rect"),
    ]
    assert [(e.source, e.target, e.label, e.kind) for e in plan.edges] == [
        ("V", "P", None, "arrow"),
        ("P", "C", None, "arrow"),
        ("C", "T", "yes", "arrow"),
        ("C", "F", "no", "arrow"),
        ("T", "S", None, "thick"),
        ("F", "S", None, "thick"),
        ("S", "X", None, "dotted"),
        ("S", "N", None, "open"),
    ]


@pytest.mark.parametrize("direction", ["TD", "TB", "LR", "RL", "BT"])
@pytest.mark.parametrize("keyword", ["graph", "flowchart"])
def test_headers(keyword: str, direction: str) -> None:
    assert ok(f"{keyword} {direction}\nA").direction == direction


def test_header_without_a_direction_is_top_to_bottom() -> None:
    assert ok("flowchart\nA-->B").direction == "TB"


@pytest.mark.parametrize(
    ("source", "label"),
    [
        ('A["quoted [with] (brackets) and | pipes"]', "quoted [with] (brackets) and | pipes"),
        ('A("  padded  ")', "padded"),
        ("A[  spaced  ]", "spaced"),
        ('A["`**markdown**`"]', "**markdown**"),
        ('A["semi;colon %% not a comment"]', "semi;colon %% not a comment"),
        ("A[50% done; still <b>ok</b>]", "50% done; still <b>ok</b>"),
        ('A["multi\nline"]', "multi\nline"),
    ],
)
def test_label_forms(source: str, label: str) -> None:
    assert ok(f"graph TD\n{source}").nodes[0].label == label


def test_a_bare_reference_keeps_the_label_defined_elsewhere() -> None:
    plan = ok("graph TD\nA --> B[Second]\nB --> C\nA[First]")
    assert [(n.id, n.label) for n in plan.nodes] == [("A", "First"), ("B", "Second"), ("C", "C")]


def test_the_same_label_twice_is_fine() -> None:
    ok("graph TD\nA[Same] --> B\nA[Same] --> C")


@pytest.mark.parametrize("node_id", ["a-b", "a.b", "a_b", "1", "x2y", "Начало", "-end-B", "node-"])
def test_node_ids(node_id: str) -> None:
    assert ok(f"graph TD\n{node_id} --> Z").nodes[0].id == node_id


def test_ids_stop_where_an_edge_starts() -> None:
    plan = ok("graph TD\na-b-->c-d\nc-d-.->e\ne==>f")
    assert [(e.source, e.target) for e in plan.edges] == [("a-b", "c-d"), ("c-d", "e"), ("e", "f")]


def test_separators_whitespace_and_line_endings() -> None:
    plan = ok("\ufeffgraph TD;A-->B;;  B --> C ;\r\n\tC-->D\r\n")
    assert [n.id for n in plan.nodes] == ["A", "B", "C", "D"]


@pytest.mark.parametrize("line", ["A --> B %% trailing comment", "%%{init: {'theme': 'dark'}}%%"])
def test_comments_and_directives(line: str) -> None:
    ok(f"graph TD\nA --> B\n{line}")


def test_styling_lines_and_classes_are_ignored() -> None:
    plan = ok(
        "graph TD\n"
        "classDef done fill:#9f9,stroke:#333\n"
        "A:::done --> B[Two]:::done & C\n"
        "class A,B done\n"
        "style C fill:#f00\n"
        "linkStyle 0,1 stroke:#f00\n"
        "linkStyle default stroke-width:2px\n"
    )
    assert [n.id for n in plan.nodes] == ["A", "B", "C"]
    assert len(plan.edges) == 2


def test_a_top_level_direction_line_is_ignored_and_keywords_can_start_ids() -> None:
    assert ok("graph LR\ndirection TB\nA").direction == "LR"
    assert [n.id for n in ok("graph LR\ndirection --> A").nodes] == ["direction", "A"]
    assert [n.id for n in ok("graph LR\nclick-->style-x").nodes] == ["click", "style-x"]


def test_subgraph_keeps_the_group_as_an_attribute() -> None:
    plan = ok(
        "flowchart LR\n"
        "A[Intro]\n"
        "subgraph core[Core ideas]\n"
        "  direction TB\n"
        "  B --> C\n"
        '  subgraph deep["Going deeper"]\n'
        "    D\n"
        "  end\n"
        "end\n"
        "A --> B\n"
        "C --> D\n"
    )
    assert {n.id: n.group for n in plan.nodes} == {"A": None, "B": "core", "C": "core", "D": "deep"}
    assert [g.model_dump() for g in plan.groups] == [
        {"id": "core", "title": "Core ideas", "parent": None, "direction": "TB"},
        {"id": "deep", "title": "Going deeper", "parent": "core", "direction": None},
    ]


def test_empty_graph_and_blank_labels_are_valid_mermaid() -> None:
    assert ok("graph TD").nodes == ()
    assert ok("graph TD\nA( )").nodes[0].label == ""


# --- errors: where, what was expected, and that all of them are reported -------------------


def test_error_names_line_and_column_and_what_was_expected() -> None:
    assert only_error("graph TD\nA-->B\nB --> ;").startswith(
        "line 3, col 7: expected a node id after '-->'"
    )


def test_every_error_is_reported_in_order_and_the_rest_still_parses() -> None:
    found = errors(
        "graph TD\n"
        "A --> B\n"
        "B --x C\n"  # line 3
        "C[unclosed\n"  # line 4
        "D --> E\n"
        "E --> \n"  # line 6
        "click A cb\n"  # line 7
        "B --> A\n"  # line 8: a cycle
    )
    assert [e.split(":")[0] for e in found] == [
        "line 3, col 3", "line 4, col 11", "line 6, col 7", "line 7, col 1", "line 8, col 3"
    ]
    assert "A -> B -> A" in found[-1]


def test_columns_count_characters_not_bytes() -> None:
    assert only_error("graph TD\nÅÄÖ --x B").startswith("line 2, col 5:")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "line 1, col 1: the plan is empty: start it with 'flowchart TD'"),
        ("%% only a comment\n", "line 2, col 1: the plan is empty"),
        ("A --> B", "line 1, col 1: expected 'flowchart' or 'graph' and a direction"),
        ("sequenceDiagram\nA->>B: hi", "line 1, col 1: expected 'flowchart' or 'graph'"),
        ("graph XY\nA", "line 1, col 7: expected a direction after 'graph': TD, TB, BT, LR or RL; found 'XY'"),
        ("graph TD A-->B", "line 1, col 10: expected ';' or a new line after 'graph TD'"),
        ("graph TD\ngraph LR", "line 2, col 1: 'graph' may appear only once"),
        ("graph TD\n--> B", "line 2, col 1: expected a node id, found '--> B'"),
        ("graph TD\nA & --> B", "line 2, col 5: expected a node id after '&'"),
        ("graph TD\nA --> B C", "line 2, col 9: expected an edge (-->, ---, -.->, ==>), '&', ';' or a new line after node 'B'"),
        ("graph TD\nA [label]", "line 2, col 3: a node's shape must follow its id directly: write A[…"),
        ("graph TD\nA --> end", "line 2, col 7: 'end' is a keyword and cannot be a node id"),
        ("graph TD\nA --> style", "line 2, col 7: 'style' is a keyword"),
        ("graph TD\n" + "x" * 101, "line 2, col 1: the node id is 101 characters; the limit is 100"),
        ("graph TD\nA[unclosed", "line 2, col 11: expected ']' to close the label of node 'A'"),
        ("graph TD\nA((x)", "line 2, col 5: expected '))' to close the label of node 'A'"),
        ("graph TD\nA[f(x)]", "line 2, col 4: unexpected '(' inside the label of node 'A'; wrap the label in quotes: A[\"…\"]"),
        ('graph TD\nA[say "hi"]', "line 2, col 7: a quoted label must be the whole label of node 'A'"),
        ("graph TD\nA[]", "line 2, col 3: the label of node 'A' is empty"),
        ('graph TD\nA["x" y]', "line 2, col 7: expected ']' after the quoted label of node 'A'"),
        ('graph TD\nA["open', "line 2, col 3: unterminated string: add the closing '\"'"),
        ("graph TD\nA:::", "line 2, col 5: expected a class name after ':::'"),
        ("graph TD\nA>odd]", "line 2, col 2: unsupported node shape '>' (asymmetric)"),
        ("graph TD\nA@{ shape: rect }", "line 2, col 2: unsupported node shape '@{' (shape data)"),
        ("graph TD\nA --x B", "line 2, col 3: unsupported edge '--x' (cross end)"),
        ("graph TD\nA--oops-->B", "line 2, col 2: unsupported edge '--o' (circle end); use -->, ---, -.-> or ==>. For edge text put a space"),
        ("graph TD\nA <--> B", "line 2, col 3: unsupported two-way edge"),
        ("graph TD\nA ~~~ B", "line 2, col 3: unsupported invisible edge '~~~'"),
        ("graph TD\nA === B", "line 2, col 3: unsupported edge '===' (thick line without an arrow); use '==>'"),
        ("graph TD\nA -.- B", "line 2, col 3: unsupported edge '-.-' (dotted line without an arrow); use '-.->'"),
        ("graph TD\nA -- text B", "line 2, col 3: the edge text after '--' is never closed: expected '-->' or '---'"),
        ("graph TD\nA == text B", "line 2, col 3: the edge text after '==' is never closed: expected '==>'"),
        ("graph TD\nA -- --> B", "line 2, col 3: the edge text after '--' is empty"),
        ('graph TD\nA -- say "hi" --> B', "line 2, col 10: a quote in edge text must wrap the whole text"),
        ('graph TD\nA -- "hi" B', "line 2, col 11: expected '-->' or '---' after the quoted edge text"),
        ("graph TD\nA -- hi -->|also| B", "line 2, col 12: an edge takes its text as '-- text -->' or as '-->|text|', not both"),
        ("graph TD\nA -->|open B", "line 2, col 13: expected '|' to close the label of the edge"),
        ("graph TD\nA -->|| B", "line 2, col 7: the label of the edge is empty"),
        ("graph TD\nA -->|f(x)| B", "line 2, col 8: unexpected '(' inside the label of the edge"),
        ("graph TD\nsubgraph\nA\nend", "line 2, col 9: expected a title or an id after 'subgraph'"),
        ("graph TD\nsubgraph my id[T]\nA\nend", "line 2, col 10: expected a subgraph id before '[', found 'my id'"),
        ("graph TD\nsubgraph a(b)\nA\nend", "line 2, col 11: unexpected '(' in the subgraph title"),
        ("graph TD\nsubgraph s[T] x\nA\nend", "line 2, col 15: expected ';' or a new line after the subgraph title"),
        ("graph TD\nsubgraph s\nA", "line 2, col 1: subgraph 's' is never closed: add 'end' after its last line"),
        ("graph TD\nA\nend", "line 3, col 1: 'end' without an open 'subgraph'"),
        ("graph TD\nsubgraph s\nA\nend\nsubgraph s\nB\nend", "line 5, col 1: subgraph 's' is defined twice"),
        ("graph TD\nsubgraph a\nb\nend\nsubgraph b\na\nend", "subgraphs 'b' and 'a' contain each other"),
        ("graph TD\nstyle", "line 2, col 6: expected a node id after 'style'"),
        ("graph TD\nstyle A", "line 2, col 8: expected styles after 'style A', e.g. style A fill:#f9f"),
        ("graph TD\nclassDef", "line 2, col 9: expected a class name after 'classDef'"),
        ("graph TD\nclassDef c", "line 2, col 11: expected styles after 'classDef c'"),
        ("graph TD\nclassDef a(b) fill:#fff", "line 2, col 10: 'a(b)' is not a valid class name"),
        ("graph TD\nA\nclass A", "line 3, col 8: expected a class name after 'class A'"),
        ("graph TD\nA\nclass A c d", "line 3, col 11: expected ';' or a new line after 'class A …'"),
        ("graph TD\nA-->B\nlinkStyle x stroke:red", "line 3, col 11: expected 'default' or edge numbers"),
        ("graph TD\nA-->B\nlinkStyle 0,3 stroke:red", "line 3, col 13: linkStyle 3 names an edge that does not exist: edges 0–0"),
        ("graph TD\nlinkStyle 0 stroke:red", "line 2, col 11: linkStyle 0 names an edge that does not exist: no edges"),
        ("graph TD\naccTitle: hi", "line 2, col 1: unsupported statement 'accTitle'"),
        ("graph TD\nclick A call cb()", "line 2, col 1: unsupported statement 'click'"),
        ("graph TD\nsubgraph s\ndirection TD\nend", "line 3, col 11: expected TB, BT, LR or RL after 'direction', found 'TD'"),
    ],
)
def test_error_messages(text: str, expected: str) -> None:
    found = errors(text)
    assert any(e.startswith(expected) or expected in e for e in found), found


def test_a_link_style_number_of_thousands_of_digits_is_a_plain_error() -> None:
    # int() refuses over 4,300 digits (a ValueError, "a bug" to the CLI): read by length first.
    found = errors("graph TD\nA-->B\nlinkStyle " + "9" * 5000 + " stroke:red")
    assert found == [("line 3, col 11: linkStyle 99999999999999999999… names an edge that does "
                     "not exist: edges 0–0 are defined above this line (edges count from 0 in "
                     "the order written)")]
    assert parse_plan("graph TD\nA-->B\nlinkStyle " + "0" * 5000 + " stroke:red").errors == []


def test_a_label_defined_twice_differently() -> None:
    assert only_error("graph TD\nA[One] --> B\nC --> A[Two]") == (
        'line 3, col 9: node \'A\' already has the label "One"; here it is "Two" — give each node '
        "one label (refer to it later by its id alone)"
    )


def test_a_shape_defined_twice_differently() -> None:
    assert "already drawn as rect; here it is round" in only_error("graph TD\nA[One]\nA(One)")


def test_a_failed_statement_has_no_effect() -> None:
    # "A[Two]" is on a broken line, so it neither defines a label nor conflicts with "One".
    assert only_error("graph TD\nA[One]\nA[Two] --x B").startswith("line 3, col 8: unsupported edge")


# --- validation --------------------------------------------------------------------------


def test_a_cycle_names_its_nodes_in_order_at_the_closing_edge() -> None:
    assert only_error("graph TD\nA --> B\nB --> C\nC --> A") == (
        "line 4, col 3: the plan has a cycle: A -> B -> C -> A; a plan lists prerequisites "
        "first and never loops back, so remove or reverse one of these edges"
    )


def test_self_loops_and_several_cycles_are_each_reported_once() -> None:
    found = errors("graph TD\nA --> A\nB --> C --> B\nC --> B\nD & E --> F --> D")
    cycles = [e.split("cycle: ")[1].split(";")[0] for e in found]
    assert cycles == ["A -> A", "B -> C -> B", "D -> F -> D"]


def test_a_long_chain_is_checked_without_recursion_limits() -> None:
    body = "\n".join(f"n{i} --> n{i + 1}" for i in range(MAX_NODES - 1))
    plan = ok("graph TD\n" + body)
    assert len(plan.nodes) == MAX_NODES


def test_size_limits() -> None:
    assert errors("graph TD\n" + "\n".join(f"n{i}" for i in range(MAX_NODES + 5))) == [(
        f"line {MAX_NODES + 2}, col 1: too many nodes: a plan has at most {MAX_NODES}; split it "
        "or merge steps"
    )]
    fan = "graph TD\n" + "\n".join(f"a{i} & b{i} --> c{i} & d{i}" for i in range(MAX_EDGES // 4 + 1))
    assert any("too many edges" in e for e in errors(fan))
    assert f"the label of node 'A' is {MAX_LABEL + 1} characters" in only_error(
        "graph TD\nA[" + "x" * (MAX_LABEL + 1) + "]"
    )
    groups = "graph TD\n" + "".join(f"subgraph g{i}\nend\n" for i in range(MAX_GROUPS + 1))
    assert any("too many subgraphs" in e for e in errors(groups))
    huge = "graph TD\n" + "A\n" * MAX_TEXT_BYTES
    assert errors(huge) == [(
        f"line 1, col 1: the plan is {len(huge)} bytes; the limit is {MAX_TEXT_BYTES} — a plan "
        "is a map of a session's main ideas, not the lesson itself"
    )]


def test_plan_error_is_a_value() -> None:
    error = PlanError(3, 7, "expected a node id after '-->'")
    assert str(error) == "line 3, col 7: expected a node id after '-->'"


# --- hostile input -----------------------------------------------------------------------

_mermaidish = st.text(
    alphabet=st.one_of(st.sampled_from(list("AB1 _-.>=|[](){}&;:%\"`\n\t")), st.characters()),
    max_size=200,
)


@settings(max_examples=400, deadline=None)
@given(st.one_of(_mermaidish, _mermaidish.map(lambda s: "flowchart TD\n" + s)))
def test_any_text_gives_a_plan_or_located_errors_never_an_exception(text: str) -> None:
    parsed = parse_plan(text)
    assert (parsed.plan is None) == bool(parsed.errors)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for error in parsed.errors:
        assert 1 <= error.line <= len(lines) and 1 <= error.col <= len(lines[error.line - 1]) + 1
        assert error.message


def test_a_lone_surrogate_is_an_error_not_a_crash_later() -> None:
    assert errors("graph TD\nA[x\ud800]") == ["line 2, col 4: invalid character (a lone surrogate)"]


def test_multiplying_fan_out_and_deep_nesting_stay_bounded() -> None:
    fan = " & ".join(f"a{i}" for i in range(2000)) + " --> " + " & ".join(f"b{i}" for i in range(2000))
    found = errors("graph TD\n" + fan)
    assert any("too many edges" in e for e in found) and len(found) == 2
    deep = errors("graph TD\n" + "subgraph s\n" * 3000 + "A\n" + "end\n" * 3000)
    assert len(deep) == MAX_ERRORS + 1
    assert deep[-1].endswith("… and 2900 more errors from here on; fix these first")
