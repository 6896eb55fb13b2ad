"""A scope written as text — the one grammar of ``studyhall make --scope``, ``studyhall export
anki --scope`` and ``GET /api/export/anki?scope=``:

    graph | source:ID | session:ID | topic:ID | cluster:ID | nodes:ID,ID,...

Older spellings stay accepted: ``all`` is ``graph`` (``export anki``'s word) and ``node:ID`` is
``nodes:ID``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studyhall.core.errors import InvalidInput

if TYPE_CHECKING:  # the CLI's parser reads SCOPE_HELP at start-up, before any contract loads
    from studyhall.core.contracts.artifacts import Scope, ScopeType

SCOPE_HELP = ("graph, source:ID, session:ID, topic:ID, cluster:ID or nodes:ID,ID,... "
              "(all is graph, node:ID is nodes:ID)")
_WHOLE = ("graph", "all")
_WITH_ID: dict[str, ScopeType] = {
    "source": "source", "session": "session", "topic": "topic", "cluster": "cluster"}
_SELECTION = ("nodes", "node")


def parse_scope(text: str | None) -> Scope:
    """The scope a text names (none or blank is the whole graph); ``InvalidInput`` naming the
    grammar when it is not one."""
    from studyhall.core.contracts.artifacts import MAX_SELECTION, Scope

    raw = (text or "graph").strip()
    if raw in _WHOLE:
        return Scope(type="graph")
    kind, sep, ident = raw.partition(":")
    ident = ident.strip()
    if not sep or not ident or kind not in (*_WITH_ID, *_SELECTION):
        raise InvalidInput(f"{raw[:80]!r} is not a scope: use {SCOPE_HELP}.")
    if kind in _WITH_ID:
        if len(ident) > 256:
            raise InvalidInput(f"The {kind} id is too long (over 256 characters).")
        return Scope(type=_WITH_ID[kind], id=ident)
    ids = tuple(dict.fromkeys(i.strip() for i in ident.split(",") if i.strip()))
    if not ids:
        raise InvalidInput(f"{raw[:80]!r} names no node: use nodes:ID,ID,...")
    if len(ids) > MAX_SELECTION:
        raise InvalidInput(f"A selection holds at most {MAX_SELECTION} nodes; {len(ids)} given.")
    return Scope(type="selection", node_ids=ids)


def scope_text(scope: Scope) -> str:
    """The scope in the grammar's own spelling (``parse_scope(scope_text(s))`` gives ``s`` back,
    without its label)."""
    if scope.type == "graph":
        return "graph"
    if scope.type == "selection":
        return "nodes:" + ",".join(scope.node_ids)
    return f"{scope.type}:{scope.id}"
