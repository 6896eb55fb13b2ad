"""Candidate topics by meaning for a session's findings: the nodes whose cached vectors are
nearest each finding, best first; none while no node has a vector, or with no embedder."""

from __future__ import annotations

from datetime import UTC, datetime

from studyhall.adapters.fakes import InMemoryGraphStore, InMemorySourceStore
from studyhall.core.contracts.graph import Evidence, PropositionCreated, RunCheckpoint
from studyhall.core.library.extraction.merger import node_id_for
from studyhall.server.runtime.library.graph_reader import GraphReader
from studyhall.server.runtime.library.graph_upkeep import GraphUpkeep
from studyhall.server.runtime.library.meaning_neighbours import MeaningNeighbours
from studyhall.server.runtime.supervisor import Supervisor

from tests.support.embedder import HashEmbedder, UnloadableEmbedder

AT = datetime(2026, 1, 1, tzinfo=UTC)
TOPICS = ("Marine mammals", "Graph trees", "Baking bread")


def graph_of_topics() -> InMemoryGraphStore:
    store = InMemoryGraphStore()
    store.append_propositions([
        PropositionCreated(id=f"prp_{i}", node_id=node_id_for(t), text=t, source_id="note:a.md",
                           evidence=(Evidence(source_id="note:a.md", message_id=f"note:a.md#{i}",
                                              quote=f"# {t}"),), run_id="run_n", at=AT)
        for i, t in enumerate(TOPICS)])
    store.append_checkpoint(RunCheckpoint(id="run_n", source_id="note:a.md", started_at=AT,
                                          finished_at=AT))
    return store


def upkeep_of(store: InMemoryGraphStore, embedder) -> GraphUpkeep:
    return GraphUpkeep(graph_store=store, source_store=InMemorySourceStore(), reader=GraphReader(store), embedder=embedder,
                       chat_model=None, prompt=str, supervisor=Supervisor())


async def test_the_nearest_embedded_nodes_come_first_and_none_before_any_is_embedded():
    store = graph_of_topics()
    upkeep = upkeep_of(store, HashEmbedder())
    meaning = MeaningNeighbours(upkeep, upkeep.snapshot)
    assert await meaning.nearest(["Graph trees"], 2) == [[]]  # no vector cached yet
    await upkeep.node_vectors(upkeep.snapshot())  # what the upkeep does after a merge
    [found] = await meaning.nearest(["Graph trees"], 2)
    assert len(found) == 2 and (found[0].id, found[0].text) == (node_id_for("Graph trees"),
                                                                "Graph trees")
    assert await meaning.nearest([], 2) == []


async def test_no_candidates_when_no_embedding_model_loads():
    upkeep = upkeep_of(graph_of_topics(), UnloadableEmbedder())
    meaning = MeaningNeighbours(upkeep, upkeep.snapshot)
    assert await meaning.nearest(["Graph trees", "Whales"], 3) == [[], []]
