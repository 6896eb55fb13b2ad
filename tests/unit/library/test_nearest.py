"""Nearest existing nodes for the auditor: lexical, idf-weighted, cached while nodes stand still."""

from __future__ import annotations

from studyhall.core.library.extraction.findings import NodeRef
from studyhall.core.library.extraction.merge_base import CachedLexicalFinder
from studyhall.core.library.extraction.nearest import LexicalNeighbours
from studyhall.core.library.graph.snapshot import GraphFold, Ledgers

from tests.support.graph_events import cp, prop

NODES = [NodeRef("n1", "A derivative is the instantaneous rate of change of a function."),
         NodeRef("n2", "The integral of a rate of change gives the total change."),
         NodeRef("n3", "A tree on n vertices has n - 1 edges.")]


async def test_the_closest_statement_ranks_first_and_unrelated_ones_not_at_all():
    finder = LexicalNeighbours(NODES)
    [near] = await finder.nearest(["Derivatives measure the instantaneous rate of change"], 5)
    assert [n.id for n in near][:2] == ["n1", "n2"]
    assert "n3" not in [n.id for n in near]
    assert await finder.nearest(["zebra"], 5) == [[]]


def test_cached_finder_rebuilds_only_when_the_nodes_change():
    fold = GraphFold()
    ledgers = Ledgers(propositions=[prop("a")], checkpoints=[cp("r1")])
    fold.update(ledgers)
    cached = CachedLexicalFinder()
    first = cached(fold.snapshot())
    assert cached(fold.snapshot()) is first
    fold.update(Ledgers(propositions=[prop("a"), prop("b", "r2")],
                        checkpoints=[cp("r1"), cp("r2")]))
    assert cached(fold.snapshot()) is not first
