"""Character-level scanning for the plan parser: node ids, quoted strings, labels, edge operators.

The rules follow mermaid's flowchart lexer (``flow.jison``) for the subset Studyhall accepts:
- an id is letters/digits (any script), ``_`` and ``.``, and ``-`` when it is not the start of
  an edge (not followed by ``-``, ``.`` or ``>``) — so ``a-b-->c`` is ``a-b`` then ``-->``;
- an unquoted label may not contain ``[ ] ( ) { } | "``; a quoted label (``"..."``) may hold
  anything but ``"`` and may span lines; ``"`text`"`` is a markdown string (backticks dropped);
  labels are trimmed;
- edges are ``-->``/``---``/``-.->``/``==>`` (longer forms like ``--->`` too), with text as
  ``-->|text|`` or ``-- text -->``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from studyhall.core.contracts.plan import EdgeKind, NodeShape


class PlanSyntaxError(Exception):
    """A problem at ``pos`` (a character offset); the parser turns it into line/column."""

    def __init__(self, pos: int, message: str) -> None:
        super().__init__(message)
        self.pos = pos
        self.message = message


# Opening bracket -> (shape or None when mermaid has it but Studyhall does not, closing bracket
# or the shape's name). Longest openers first: "((" must win over "(".
SHAPES: tuple[tuple[str, NodeShape | None, str], ...] = (
    ("(((", None, "double circle"),
    ("((", "circle", "))"),
    ("(-", None, "ellipse"),
    ("([", "stadium", "])"),
    ("(", "round", ")"),
    ("[[", "subroutine", "]]"),
    ("[(", None, "cylinder"),
    ("[/", None, "trapezoid"),
    ("[\\", None, "trapezoid"),
    ("[|", None, "box with properties"),
    ("[", "rect", "]"),
    ("{{", "hexagon", "}}"),
    ("{", "diamond", "}"),
    (">", None, "asymmetric"),
    ("@{", None, "shape data"),
)
SHAPE_HELP = "use A[text], A(text), A((text)), A{text}, A{{text}}, A([text]) or A[[text]]"
EDGE_HELP = "use -->, ---, -.-> or ==>"
_LABEL_STOP = set('[](){}|"\n')

_NORMAL = re.compile(r"--+[-xo>]")
_THICK = re.compile(r"==+[=xo>]")
_DOTTED = re.compile(r"-?\.+-[xo>]?")
_OPENERS: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("--", _NORMAL, "-->' or '---"),
    ("==", _THICK, "==>"),
    ("-.", _DOTTED, ".->"),
)


@dataclass(frozen=True)
class Link:
    kind: EdgeKind
    label: str | None
    op: str  # the closing operator as written, for messages ("expected a node id after '-->'")
    pos: int


class Cursor:
    """A position in the plan text with the small look-ahead helpers the parser needs."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def char(self, offset: int = 0) -> str:
        i = self.pos + offset
        return self.text[i] if i < len(self.text) else ""

    def at(self, s: str) -> bool:
        return self.text.startswith(s, self.pos)

    def eof(self) -> bool:
        return self.pos >= len(self.text)

    def skip_spaces(self) -> None:
        text = self.text
        while self.pos < len(text) and text[self.pos] != "\n" and text[self.pos].isspace():
            self.pos += 1

    def at_statement_end(self) -> bool:
        """End of a statement: ``;``, a new line, the end, or a ``%%`` comment."""
        return self.eof() or self.char() in ";\n" or self.at("%%")

    def skip_line(self) -> None:
        nl = self.text.find("\n", self.pos)
        self.pos = len(self.text) if nl < 0 else nl

    def found(self) -> str:
        """What sits at the cursor, quoted for an error message."""
        if self.eof():
            return "the end of the plan"
        if self.char() == "\n":
            return "the end of the line"
        return repr(self.text[self.pos : self.pos + 12].split("\n")[0])


def is_id_char(text: str, i: int) -> bool:
    c = text[i]
    if c.isalnum() or c in "_.":
        return True
    if c == "-":  # part of an id only when it cannot start an edge
        return i + 1 < len(text) and text[i + 1] not in "->."
    return False


def scan_id(cur: Cursor) -> str:
    start = cur.pos
    while cur.pos < len(cur.text) and is_id_char(cur.text, cur.pos):
        cur.pos += 1
    return cur.text[start : cur.pos]


def is_id(s: str) -> bool:
    return bool(s) and all(is_id_char(s, i) for i in range(len(s)))


def string_label(content: str) -> str:
    """A quoted string's label: a markdown string (``"`x`"``) loses its backticks; trimmed."""
    if len(content) >= 2 and content[0] == "`" and content[-1] == "`":
        content = content[1:-1]
    return content.strip()


def scan_string(cur: Cursor) -> str:
    """At a ``"``: the string's content (it may span lines); the cursor ends after the ``"``."""
    start = cur.pos
    end = cur.text.find('"', start + 1)
    if end < 0:
        raise PlanSyntaxError(start, "unterminated string: add the closing '\"'")
    cur.pos = end + 1
    return cur.text[start + 1 : end]


def scan_label(cur: Cursor, closer: str, what: str, example: str) -> tuple[str, int]:
    """The label between an opener (already consumed) and ``closer``: quoted or plain.

    ``what`` names the owner in messages ("node 'A'", "the edge"); ``example`` shows the
    quoted form. Returns the label and where it starts.
    """
    start = cur.pos
    cur.skip_spaces()
    if cur.char() != '"':
        cur.pos = start  # plain text keeps its spaces: "A( )" is a blank label, "A()" is empty
    else:
        start = cur.pos
        label = string_label(scan_string(cur))
        cur.skip_spaces()
        if not cur.at(closer):
            raise PlanSyntaxError(
                cur.pos,
                f"expected '{closer}' after the quoted label of {what}, found {cur.found()}",
            )
        cur.pos += len(closer)
        return label, start
    text = cur.text
    i = cur.pos
    while i < len(text) and text[i] not in _LABEL_STOP:
        i += 1
    raw = text[cur.pos : i]
    cur.pos = i
    if cur.at(closer):
        cur.pos += len(closer)
        if not raw:
            raise PlanSyntaxError(start, f"the label of {what} is empty: write text inside it")
        return raw.strip(), start
    if cur.eof() or cur.char() == "\n" or cur.char() == closer[0]:
        raise PlanSyntaxError(cur.pos, f"expected '{closer}' to close the label of {what}")
    bad = cur.char()
    if bad == '"':
        raise PlanSyntaxError(
            cur.pos, f"a quoted label must be the whole label of {what}: write {example}"
        )
    raise PlanSyntaxError(
        cur.pos,
        f"unexpected '{bad}' inside the label of {what}; wrap the label in quotes: {example}",
    )


def _link_kind(op: str, family: str) -> EdgeKind:
    """The kind of a complete operator (``-->``, ``---``, ``==>``, ``-.->``) or an error."""
    end = op[-1]
    if end in "xo":
        shape = "cross" if end == "x" else "circle"
        raise ValueError(f"unsupported edge '{op}' ({shape} end); {EDGE_HELP}")
    if family == "-":
        return "arrow" if end == ">" else "open"
    if family == "=":
        if end == ">":
            return "thick"
        raise ValueError(f"unsupported edge '{op}' (thick line without an arrow); use '==>'")
    if end == ">":
        return "dotted"
    raise ValueError(f"unsupported edge '{op}' (dotted line without an arrow); use '-.->'")


def _kind_at(pos: int, op: str, family: str) -> EdgeKind:
    try:
        return _link_kind(op, family)
    except ValueError as e:
        raise PlanSyntaxError(pos, str(e)) from None


def scan_link(cur: Cursor) -> Link | None:
    """An edge at the cursor (with its text), or None when no edge starts here."""
    pos = cur.pos
    text = cur.text
    if cur.at("<-") or cur.at("<=") or cur.at("<."):
        raise PlanSyntaxError(
            pos, f"unsupported two-way edge: plan edges point one way; {EDGE_HELP}"
        )
    if cur.at("~~~"):
        raise PlanSyntaxError(pos, f"unsupported invisible edge '~~~'; {EDGE_HELP}")
    for pattern, family in ((_NORMAL, "-"), (_THICK, "="), (_DOTTED, ".")):
        m = pattern.match(text, pos)
        if m:
            op = m.group()
            if op[-1] == "o" and family == "-":
                raise PlanSyntaxError(
                    pos,
                    f"unsupported edge '{op}' (circle end); {EDGE_HELP}. For edge text put a "
                    "space after the dashes: A -- text --> B",
                )
            kind = _kind_at(pos, op, family)
            cur.pos = m.end()
            return Link(kind, _pipe_label(cur), op, pos)
    for opener, end_pattern, closer in _OPENERS:
        if cur.at(opener):
            return _text_link(cur, opener, end_pattern, closer)
    return None


def _pipe_label(cur: Cursor) -> str | None:
    """An optional ``|text|`` after an edge operator."""
    save = cur.pos
    cur.skip_spaces()
    if cur.char() != "|":
        cur.pos = save
        return None
    cur.pos += 1
    label, _ = scan_label(cur, "|", "the edge", 'A -->|"text"| B')
    return label or None


def _text_link(cur: Cursor, opener: str, end_pattern: re.Pattern[str], closer: str) -> Link:
    """``-- text -->``, ``== text ==>``, ``-. text .->``: text between an opener and a closer."""
    start = cur.pos
    family = opener[0] if opener != "-." else "."
    cur.pos += len(opener)
    cur.skip_spaces()
    text = cur.text
    unclosed = (
        f"the edge text after '{opener}' is never closed: expected '{closer}' "
        f"(e.g. A {opener} text {closer.split(chr(39))[0]} B)"
    )
    if cur.char() == '"':
        label = string_label(scan_string(cur))
        cur.skip_spaces()
        m = end_pattern.match(text, cur.pos)
        if not m:
            raise PlanSyntaxError(cur.pos, f"expected '{closer}' after the quoted edge text")
    else:
        i = cur.pos
        m = None
        while i < len(text) and text[i] != "\n":
            m = end_pattern.match(text, i)
            if m:
                break
            if text[i] == '"':
                raise PlanSyntaxError(
                    i, f'a quote in edge text must wrap the whole text: A {opener} "text" ... B'
                )
            i += 1
        if m is None:
            raise PlanSyntaxError(start, unclosed)
        label = text[cur.pos : i].strip()
        if not label:
            raise PlanSyntaxError(start, f"the edge text after '{opener}' is empty")
    op = m.group()
    kind = _kind_at(m.start(), op, family)
    cur.pos = m.end()
    save = cur.pos
    cur.skip_spaces()
    if cur.char() == "|":
        raise PlanSyntaxError(
            cur.pos, "an edge takes its text as '-- text -->' or as '-->|text|', not both"
        )
    cur.pos = save
    return Link(kind, label or None, op, start)
