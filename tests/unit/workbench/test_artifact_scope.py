"""Resolving an artifact's scope into its writer's grounding: each scope type gives its own
ideas and passages (with their verbatim evidence), the whole graph is bounded and says so, and a
scope with nothing in it is a clear ``EmptyScope``, one naming nothing known ``NotFound``."""

from __future__ import annotations

from typing import Any

import pytest
from studyhall.adapters.fakes import InMemoryChatStore, InMemoryGraphStore, InMemorySourceStore
from studyhall.core.agents.scope_grounding import MAX_SCOPE_FACTS
from studyhall.core.contracts.artifacts import Scope
from studyhall.core.contracts.chat import ChatRecord
from studyhall.core.contracts.search import Chunk
from studyhall.core.contracts.sources import Source
from studyhall.core.errors import EmptyScope, InvalidInput, NotFound
from studyhall.server.runtime.library.graph_reader import GraphReader
from studyhall.server.runtime.workbench.artifact_scope import ScopeResolver, scope_from

from tests.support.artifact_graph import CHAT, QUOTES, SOURCE, seed_heap_graph
from tests.support.library_session import at, text
from tests.support.map_graph import seed_map_graph


class Chunks:
    """The one SearchIndex method scope resolution reads."""

    def __init__(self, chunks: dict[str, list[Chunk]]) -> None:
        self._chunks = chunks

    def chunks(self, source_id: str) -> list[Chunk]:
        return self._chunks.get(source_id, [])


def chunk(n: int, body: str) -> Chunk:
    return Chunk(id=f"{SOURCE}:{n}", source_id=SOURCE, path="heaps.md", kind="note",
                 title="Heaps", anchor=f"part-{n}", text=body)


def resolver(*, graph: bool = True, messages: tuple[Any, ...] = (),
             chunks: list[Chunk] | None = None) -> ScopeResolver:
    store = InMemoryGraphStore()
    if graph:
        seed_heap_graph(store)
    chats = InMemoryChatStore()
    chats.create(ChatRecord(id=CHAT, topic="heaps", title="Heaps with the teacher",
                            created_at=at(0), updated_at=at(0), messages=messages))
    sources = InMemorySourceStore()
    sources.save(Source(id=SOURCE, path="notes/heaps.md", root="/vault", kind="note",
                        status="imported", imported_at=at(0)))
    index = Chunks({SOURCE: chunks if chunks is not None else [chunk(1, "Heaps are trees.")]})
    return ScopeResolver(graph=GraphReader(store), chats=chats, sources=sources,
                         index=index)  # type: ignore[arg-type]


def ids(found: Any) -> list[str]:
    return [f.node_id for f in found.grounding.facts]


async def test_a_topic_gives_its_node_and_everything_under_it_with_evidence() -> None:
    found = await resolver().resolve(Scope(type="topic", id="n_heap"))
    assert ids(found) == ["n_heap", "n_ops", "n_sift"]  # nearest first; n_graph is not under it
    assert found.label == "Heaps"
    quoted = "\n".join(p.text for p in found.grounding.passages)
    assert QUOTES["n_sift"] in quoted and QUOTES["n_graph"] not in quoted


async def test_a_cluster_gives_its_members() -> None:
    found = await resolver().resolve(Scope(type="cluster", id="c_heaps"))
    assert sorted(ids(found)) == ["n_heap", "n_ops", "n_sift"] and found.label == "Heaps"


async def test_a_selection_gives_the_known_nodes_it_names() -> None:
    found = await resolver().resolve(Scope(type="selection", node_ids=("n_sift", "n_gone",
                                                                       "n_graph")))
    assert ids(found) == ["n_sift", "n_graph"] and found.label == "2 selected ideas"


async def test_a_source_gives_its_passages_and_the_ideas_it_is_evidence_for() -> None:
    chunks = [chunk(n, f"Passage {n} about heaps.") for n in range(1, 40)]
    found = await resolver(chunks=chunks).resolve(Scope(type="source", id=SOURCE))
    assert found.label == "notes/heaps.md"
    assert sorted(ids(found)) == ["n_heap", "n_ops", "n_sift"]
    links = [p.link for p in found.grounding.passages if p.link.startswith("heaps.md")]
    # a long source is spread over, first to last, not cut after its opening
    assert links[0] == "heaps.md#part-1" and links[-1] == "heaps.md#part-39"


async def test_a_session_gives_its_transcript_and_its_findings() -> None:
    messages = (text("m1", "user", "What is a graph?", 1),
                text("m2", "assistant", "A graph is a set of vertices joined by edges.", 2))
    found = await resolver(messages=messages).resolve(Scope(type="session", id=CHAT))
    assert ids(found) == ["n_graph"] and found.label == "Heaps with the teacher"
    first = found.grounding.passages[0]
    assert first.text == ("Learner: What is a graph?\n"
                          "Teacher: A graph is a set of vertices joined by edges.")


async def test_the_whole_graph_is_bounded_to_its_most_central_ideas_and_says_so() -> None:
    small = await resolver().resolve(Scope(type="graph"))
    assert small.label == "The whole graph" and ids(small)[:2] == ["n_ops", "n_heap"]
    store = InMemoryGraphStore()
    seed_map_graph(store, n=300, clusters=6)
    big = ScopeResolver(graph=GraphReader(store), chats=InMemoryChatStore(),
                        sources=InMemorySourceStore(), index=Chunks({}))  # type: ignore[arg-type]
    found = await big.resolve(Scope(type="graph"))
    assert len(found.grounding.facts) == MAX_SCOPE_FACTS
    assert found.label == f"The whole graph (its {MAX_SCOPE_FACTS} most central ideas of 300)"


@pytest.mark.parametrize("scope, says", [
    (Scope(type="graph"), "The knowledge graph is empty"),
    (Scope(type="source", id=SOURCE), "wait for its import to finish"),
    (Scope(type="session", id=CHAT), "has no conversation yet"),
    (Scope(type="selection"), "Nothing is selected"),
])
async def test_an_empty_scope_is_a_clear_error(scope: Scope, says: str) -> None:
    with pytest.raises(EmptyScope, match=says):
        await resolver(graph=False, chunks=[]).resolve(scope)


@pytest.mark.parametrize("scope", [Scope(type="topic", id="n_nope"),
                                   Scope(type="cluster", id="c_nope"),
                                   Scope(type="source", id="src_nope"),
                                   Scope(type="session", id="chat_nope"),
                                   Scope(type="selection", node_ids=("n_gone",))])
async def test_a_scope_naming_nothing_known_is_not_found(scope: Scope) -> None:
    with pytest.raises(NotFound):
        await resolver().resolve(scope)


@pytest.mark.parametrize("data, says", [
    ({"type": "topic"}, 'needs the topic\'s "id"'),
    ({"type": "graph", "node_ids": ["n_a"]}, "selection scope only"),
    ({"type": "graph", "id": "x"}, 'takes no "id"'),
    ({"type": "everything"}, "The scope is not right"),
])
def test_a_malformed_scope_says_what_to_send(data: dict[str, Any], says: str) -> None:
    with pytest.raises(InvalidInput, match=says):
        scope_from(data)
