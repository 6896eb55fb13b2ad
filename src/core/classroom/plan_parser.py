"""The plan parser: a deterministic, hand-written parser for the mermaid flowchart subset.

Accepted (see ``plan_scan`` for the lexical rules): a ``graph``/``flowchart`` header with a
direction (TD, TB, LR, RL, BT — or mermaid's ``>``, ``<``, ``^``, ``v``; none means TB); node
forms ``A``, ``A[t]``, ``A(t)``, ``A((t))``, ``A{t}``, ``A{{t}}``, ``A([t])``, ``A[[t]]``, any
of them with ``"quoted"`` text; edges ``-->``, ``---``, ``-.->``, ``==>`` with ``|text|`` or
``-- text -->``; chains ``A --> B --> C``; ``&`` fan-out/in; ``;`` separators; ``%%`` comments;
``subgraph id[title] … end`` (also ``subgraph title``) with ``direction`` inside; and styling
lines (``classDef``, ``class``, ``style``, ``linkStyle``, ``:::name``), accepted and ignored —
except that, as in mermaid, ``style X …`` declares node X. Anything else is an error.

Every error carries a 1-based line and column and says what was expected; the parser recovers
at the next line, so one pass reports them all. Validation (a DAG, one label per node, size
limits) runs on the same pass.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from studyhall.core.classroom.plan_build import NodeRef, PlanBuilder
from studyhall.core.classroom.plan_limits import MAX_ERRORS, MAX_ID, MAX_TEXT_BYTES
from studyhall.core.classroom.plan_scan import (
    SHAPE_HELP,
    SHAPES,
    Cursor,
    PlanSyntaxError,
    scan_id,
    scan_label,
    scan_link,
)
from studyhall.core.classroom.plan_statements import parse_styling, parse_subgraph_header
from studyhall.core.classroom.plan_validate import EdgeAt
from studyhall.core.contracts.plan import Plan

_DIRECTIONS = {
    "TD": "TD",
    "TB": "TB",
    "LR": "LR",
    "RL": "RL",
    "BT": "BT",
    ">": "LR",
    "<": "RL",
    "^": "BT",
    "v": "TB",
}
_GROUP_DIRECTIONS = ("TB", "BT", "LR", "RL")
# Words that start a statement; they cannot be node ids (as in mermaid).
_RESERVED = {"end", "subgraph", "graph", "flowchart", "style", "classDef", "class", "linkStyle"}
_UNSUPPORTED = {"click", "call", "href", "accTitle", "accDescr"}
_T = TypeVar("_T")
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class PlanError:
    line: int
    col: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}, col {self.col}: {self.message}"


@dataclass(frozen=True)
class PlanParse:
    plan: Plan | None  # None whenever there is an error
    errors: list[PlanError] = field(default_factory=list)


def parse_plan(text: str) -> PlanParse:
    text = text.replace("\r\n", "\n").replace("\r", "\n").removeprefix("\ufeff")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_TEXT_BYTES:
        return PlanParse(
            None,
            [
                PlanError(
                    1,
                    1,
                    (
                        f"the plan is {size} bytes; the limit is {MAX_TEXT_BYTES} — a plan "
                        "is a map of a session's main ideas, not the lesson itself"
                    ),
                )
            ],
        )
    parser = _Parser(text)
    bad = _SURROGATE.search(text)
    if bad:  # cannot be saved or shown as UTF-8; only a broken JSON escape makes one
        line, col = parser.where(bad.start())
        return PlanParse(None, [PlanError(line, col, "invalid character (a lone surrogate)")])
    return parser.run()


class _Parser:
    def __init__(self, text: str) -> None:
        self.cur = Cursor(text)
        self.build = PlanBuilder()
        self.line_starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]

    def where(self, pos: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.line_starts, pos)
        return line, pos - self.line_starts[line - 1] + 1

    def run(self) -> PlanParse:
        direction = self._guarded(self._header) or "TB"
        while not self._skip_blank():
            self._guarded(self._statement)
        self.build.finish(self.cur.pos)
        errors = sorted(
            (PlanError(*self.where(e.pos), e.message) for e in self.build.errors),
            key=lambda e: (e.line, e.col),
        )
        if len(errors) > MAX_ERRORS:  # a broken file can make thousands; the first ones lead
            rest = errors[MAX_ERRORS]
            more = len(errors) - MAX_ERRORS
            errors = errors[:MAX_ERRORS] + [
                PlanError(
                    rest.line, rest.col, f"… and {more} more errors from here on; fix these first"
                )
            ]
        if errors:
            return PlanParse(None, errors)
        return PlanParse(self.build.plan(direction), [])

    def _guarded(self, step: Callable[[], _T]) -> _T | None:
        try:
            return step()
        except PlanSyntaxError as e:
            self.build.errors.append(e)
            self.cur.skip_line()  # recover at the next line
            return None

    def _skip_blank(self) -> bool:
        """Skip separators, blank lines and comments; True at the end of the text."""
        cur = self.cur
        while True:
            cur.skip_spaces()
            if cur.eof():
                return True
            if cur.char() in ";\n":
                cur.pos += 1
            elif cur.at("%%"):
                cur.skip_line()
            else:
                return False

    def _end_statement(self, after: str) -> None:
        self.cur.skip_spaces()
        if not self.cur.at_statement_end():
            raise PlanSyntaxError(
                self.cur.pos, f"expected ';' or a new line after {after}, found {self.cur.found()}"
            )

    # --- header ---------------------------------------------------------------------------

    def _header(self) -> str | None:
        cur = self.cur
        if self._skip_blank():
            raise PlanSyntaxError(cur.pos, "the plan is empty: start it with 'flowchart TD'")
        start = cur.pos
        word = scan_id(cur)
        if word not in ("graph", "flowchart"):
            cur.pos = start  # parse this line as a statement too, to report everything at once
            shown = f"'{word}'" if word else cur.found()
            self.build.errors.append(
                PlanSyntaxError(
                    start,
                    (
                        "expected 'flowchart' or 'graph' and a direction (e.g. 'flowchart TD') "
                        f"on the first line, found {shown}"
                    ),
                )
            )
            return None
        cur.skip_spaces()
        if cur.at_statement_end():
            return "TB"  # mermaid: no direction means top to bottom
        dir_pos = cur.pos
        token = scan_id(cur) or cur.char()
        if token not in _DIRECTIONS:
            raise PlanSyntaxError(
                dir_pos,
                (f"expected a direction after '{word}': TD, TB, BT, LR or RL; found '{token}'"),
            )
        if cur.pos == dir_pos:
            cur.pos += 1
        self._end_statement(f"'{word} {token}'")
        return _DIRECTIONS[token]

    # --- statements -----------------------------------------------------------------------

    def _statement(self) -> None:
        cur = self.cur
        start = cur.pos
        word = scan_id(cur)
        boundary = cur.eof() or cur.char() in ";\n" or cur.char().isspace()
        if word and boundary:
            if word == "subgraph":
                gid, title = parse_subgraph_header(cur)
                return self.build.open_group(gid, title, start)
            if word == "end":
                self._end_statement("'end'")
                return self.build.close_group(start)
            if word == "direction" and self._direction():
                return None
            if word in ("style", "classDef", "class", "linkStyle"):
                return parse_styling(cur, word, start, self.build)
        if word in _UNSUPPORTED and (boundary or cur.char() == ":"):
            raise PlanSyntaxError(
                start,
                (
                    f"unsupported statement '{word}': a plan holds nodes, edges, subgraphs, "
                    "comments and styling lines"
                ),
            )
        if word in ("graph", "flowchart"):
            raise PlanSyntaxError(start, f"'{word}' may appear only once, on the first line")
        cur.pos = start
        self._chain()

    def _direction(self) -> bool:
        """``direction LR`` inside a subgraph; False when 'direction' is just a node id."""
        cur = self.cur
        save = cur.pos
        cur.skip_spaces()
        token_pos = cur.pos
        token = scan_id(cur)
        if token in _DIRECTIONS and token not in _GROUP_DIRECTIONS:
            raise PlanSyntaxError(
                token_pos, f"expected TB, BT, LR or RL after 'direction', found '{token}'"
            )
        if token not in _GROUP_DIRECTIONS:
            cur.pos = save
            return False
        self._end_statement(f"'direction {token}'")
        self.build.set_direction(token)
        return True

    def _chain(self) -> None:
        """``A & B --> C -->|text| D …``: node groups joined by edges."""
        cur = self.cur
        sources = self._node_group("expected a node id")
        mentions = list(sources)
        links: list[tuple[list[NodeRef], list[NodeRef], EdgeAt]] = []
        while True:
            cur.skip_spaces()
            if cur.at_statement_end():
                break
            pos = cur.pos
            link = scan_link(cur)
            if link is None:
                raise PlanSyntaxError(pos, self._after_node_message(sources[-1].id))
            cur.skip_spaces()
            targets = self._node_group(f"expected a node id after '{link.op}'")
            links.append((sources, targets, EdgeAt("", "", link.label, link.kind, link.pos)))
            mentions.extend(targets)
            sources = targets
        for ref in mentions:  # only a whole, well-formed statement takes effect
            self.build.mention(ref)
        for left, right, edge in links:
            self.build.link(left, right, edge)

    def _after_node_message(self, node_id: str) -> str:
        cur = self.cur
        if cur.char() in "[({" and cur.text[cur.pos - 1].isspace():
            return (
                f"a node's shape must follow its id directly: write {node_id}{cur.char()}…, "
                f"not {node_id} {cur.char()}…"
            )
        return (
            f"expected an edge (-->, ---, -.->, ==>), '&', ';' or a new line after node "
            f"'{node_id}', found {cur.found()}"
        )

    def _node_group(self, expected: str) -> list[NodeRef]:
        cur = self.cur
        refs = [self._node(expected)]
        while True:
            save = cur.pos
            cur.skip_spaces()
            if cur.char() != "&":
                cur.pos = save
                return refs
            cur.pos += 1
            cur.skip_spaces()
            refs.append(self._node("expected a node id after '&'"))

    def _node(self, expected: str) -> NodeRef:
        cur = self.cur
        pos = cur.pos
        node_id = scan_id(cur)
        if not node_id:
            raise PlanSyntaxError(pos, f"{expected}, found {cur.found()}")
        if node_id in _RESERVED:
            raise PlanSyntaxError(
                pos,
                (
                    f"'{node_id}' is a keyword and cannot be a node id; rename the node "
                    f"(e.g. {node_id}_step)"
                ),
            )
        if len(node_id) > MAX_ID:
            raise PlanSyntaxError(
                pos, f"the node id is {len(node_id)} characters; the limit is {MAX_ID}"
            )
        ref = NodeRef(node_id, pos)
        for opener, shape, closer in SHAPES:
            if not cur.at(opener):
                continue
            if shape is None:
                raise PlanSyntaxError(
                    cur.pos,
                    (
                        f"unsupported node shape '{opener}' ({closer}) for node '{node_id}'; "
                        f"{SHAPE_HELP}. To start a label with '{opener[1:] or opener}', quote it: "
                        f'{node_id}["…"]'
                    ),
                )
            cur.pos += len(opener)
            example = f'{node_id}{opener}"…"{closer}'
            ref.label, ref.label_pos = scan_label(cur, closer, f"node '{node_id}'", example)
            ref.shape = shape
            break
        if cur.at(":::"):  # a CSS class: accepted, ignored
            cur.pos += 3
            if not scan_id(cur):
                raise PlanSyntaxError(
                    cur.pos, f"expected a class name after ':::', found {cur.found()}"
                )
        return ref
