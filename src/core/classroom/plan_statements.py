"""Statements other than node chains: subgraph headers, and styling — ``style``, ``classDef``,
``class``, ``linkStyle`` — which is checked, then ignored.

Styling lines must be well-formed (as mermaid requires) but carry no meaning for a plan, with one
mermaid rule kept: ``style X …`` declares node X if it does not exist yet. ``linkStyle N``
must name an edge defined above it (mermaid rejects an out-of-range index too).
"""

from __future__ import annotations

import re

from studyhall.core.classroom.plan_build import NodeRef, PlanBuilder
from studyhall.core.classroom.plan_scan import (
    Cursor,
    PlanSyntaxError,
    is_id,
    scan_id,
    scan_label,
    scan_string,
    string_label,
)

_INDEX_LIST = re.compile(r"\d+(?:,\d+)*")


def parse_styling(cur: Cursor, word: str, start: int, build: PlanBuilder) -> None:
    cur.skip_spaces()
    if word == "style":
        _style(cur, build)
    elif word == "classDef":
        names = _word(cur, "a class name after 'classDef'")
        _check_ids(names, cur.pos - len(names), "class name")
        _styles(cur, f"'classDef {names}'", f"classDef {names} fill:#f9f,stroke:#333")
    elif word == "class":
        ids = _word(cur, "node ids after 'class' (e.g. class a,b highlight)")
        _check_ids(ids, cur.pos - len(ids), "node id")
        cur.skip_spaces()
        if not scan_id(cur):
            raise PlanSyntaxError(
                cur.pos, f"expected a class name after 'class {ids}', found {cur.found()}"
            )
        _end(cur, f"'class {ids} …'")
    else:
        _link_style(cur, build)


def _style(cur: Cursor, build: PlanBuilder) -> None:
    pos = cur.pos
    node_id = scan_id(cur)
    if not node_id:
        raise PlanSyntaxError(pos, f"expected a node id after 'style', found {cur.found()}")
    _styles(cur, f"'style {node_id}'", f"style {node_id} fill:#f9f,stroke:#333")
    build.mention(NodeRef(node_id, pos), member=False)


def _link_style(cur: Cursor, build: PlanBuilder) -> None:
    pos = cur.pos
    if cur.at("default") and not cur.char(7).isalnum():
        cur.pos += len("default")
        _styles(cur, "'linkStyle default'", "linkStyle default stroke:#333")
        return
    m = _INDEX_LIST.match(cur.text, pos)
    if not m:
        raise PlanSyntaxError(
            pos,
            (
                "expected 'default' or edge numbers (e.g. 0,2) after 'linkStyle', "
                f"found {cur.found()}"
            ),
        )
    cur.pos = m.end()
    _styles(cur, f"'linkStyle {m.group()}'", f"linkStyle {m.group()} stroke:#333")
    count = len(build.edges)
    offset = 0
    for number in m.group().split(","):
        # By length first: int() refuses over 4,300 digits, and no plan has that many edges.
        significant = number.lstrip("0") or "0"
        if len(significant) > len(str(count)) or int(significant) >= count:
            defined = f"edges 0–{count - 1}" if count else "no edges"
            shown = number if len(number) <= 20 else f"{number[:20]}…"
            raise PlanSyntaxError(
                pos + offset,
                (
                    f"linkStyle {shown} names an edge that does not exist: {defined} are "
                    "defined above this line (edges count from 0 in the order written)"
                ),
            )
        offset += len(number) + 1


def _word(cur: Cursor, expected: str) -> str:
    start = cur.pos
    while not cur.at_statement_end() and not cur.char().isspace():
        cur.pos += 1
    if cur.pos == start:
        raise PlanSyntaxError(start, f"expected {expected}, found {cur.found()}")
    return cur.text[start : cur.pos]


def _check_ids(text: str, pos: int, what: str) -> None:
    offset = 0
    for part in text.split(","):
        if not is_id(part):
            raise PlanSyntaxError(pos + offset, f"'{part}' is not a valid {what}")
        offset += len(part) + 1


def _styles(cur: Cursor, after: str, example: str) -> None:
    """The style list that must follow (``fill:#f9f,stroke:#333``), up to the statement's end."""
    if not cur.at_statement_end() and not cur.char().isspace():
        raise PlanSyntaxError(
            cur.pos, f"expected a space and styles after {after}, found {cur.found()}"
        )
    cur.skip_spaces()
    start = cur.pos
    while not cur.eof() and cur.char() not in ";\n":
        cur.pos += 1
    if not cur.text[start : cur.pos].strip():
        raise PlanSyntaxError(start, f"expected styles after {after}, e.g. {example}")


def _end(cur: Cursor, after: str) -> None:
    cur.skip_spaces()
    if not cur.at_statement_end():
        raise PlanSyntaxError(
            cur.pos, f"expected ';' or a new line after {after}, found {cur.found()}"
        )


def parse_subgraph_header(cur: Cursor) -> tuple[str | None, str]:
    """``subgraph id[title]``, ``subgraph "title"`` or ``subgraph title`` -> (id, title).

    As in mermaid, a title with spaces and no explicit id gets an id when the subgraph closes
    (``subGraph0``, ``subGraph1`` … in closing order); a one-word title is also the id.
    """
    cur.skip_spaces()
    if cur.at_statement_end():
        raise PlanSyntaxError(
            cur.pos,
            ("expected a title or an id after 'subgraph', e.g. subgraph basics[The basics]"),
        )
    if cur.char() == '"':
        title = string_label(scan_string(cur))
        gid = title if title and not any(c.isspace() for c in title) else None
    else:
        raw_start = cur.pos
        while not cur.at_statement_end() and cur.char() not in '[]{}()|"':
            cur.pos += 1
        raw = cur.text[raw_start : cur.pos].strip()
        if cur.char() == "[":
            if not is_id(raw):
                raise PlanSyntaxError(
                    raw_start,
                    (
                        f"expected a subgraph id before '[', found '{raw}'; ids have no spaces: "
                        "subgraph my_id[My title]"
                    ),
                )
            cur.pos += 1
            title, _ = scan_label(cur, "]", f"subgraph '{raw}'", f'subgraph {raw}["…"]')
            gid = raw
        elif not cur.at_statement_end():
            raise PlanSyntaxError(
                cur.pos,
                (
                    f"unexpected '{cur.char()}' in the subgraph title; quote it: "
                    'subgraph my_id["My title"]'
                ),
            )
        else:
            title = raw
            gid = raw if not any(c.isspace() for c in raw) else None
    _end(cur, "the subgraph title")
    return gid, title
