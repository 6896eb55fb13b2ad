"""Resolving an artifact's scope into what its writer is given, through ports: the graph
snapshot, the search index's chunks, the chat record. A scope that names nothing known is
``NotFound``; one that holds nothing to write from is ``EmptyScope`` (HTTP 422), said so that
the learner knows what to do first.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError
from studyhall.core.agents.grounding import Grounding
from studyhall.core.agents.scope_grounding import (
    MAX_SCOPE_FACTS,
    ScopeMaterial,
    central_nodes,
    chunk_passages,
    citing,
    material,
    transcript_passages,
)
from studyhall.core.contracts.artifacts import Scope
from studyhall.core.errors import EmptyScope, InvalidInput, NotFound
from studyhall.core.library.graph.topics import topic_family
from studyhall.core.library.graph.view import GraphSnapshot
from studyhall.core.ports.search import SearchIndex
from studyhall.core.ports.storage import ChatStore, SourceStore
from studyhall.server.runtime.library.graph_reader import GraphReader

_NEEDS_ID = ("source", "session", "topic", "cluster")


def scope_from(data: Mapping[str, Any]) -> Scope:
    """A scope as a request or a stored job gives it, checked: an id for a source, session,
    topic or cluster; node ids for a selection, and for nothing else."""
    try:
        scope = Scope.model_validate(dict(data))
    except ValidationError as e:
        first = e.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "scope"
        raise InvalidInput(f"The scope is not right ({where}: {first.get('msg', '')}). Send "
                           '{"type": "graph"|"source"|"session"|"topic"|"cluster"|"selection", '
                           '"id"?, "node_ids"?}.') from None
    if scope.type in _NEEDS_ID and not scope.id:
        raise InvalidInput(f'A {scope.type} scope needs the {scope.type}\'s "id".')
    if scope.type != "selection" and scope.node_ids:
        raise InvalidInput('"node_ids" belong to a selection scope only.')
    if scope.type in ("graph", "selection") and scope.id:
        raise InvalidInput(f'A {scope.type} scope takes no "id".')
    return scope


class ScopeResolver:
    def __init__(self, *, graph: GraphReader, chats: ChatStore, sources: SourceStore,
                 index: SearchIndex) -> None:
        self._graph = graph
        self._chats = chats
        self._sources = sources
        self._index = index

    async def grounding(self, scope: Mapping[str, Any]) -> Grounding:
        """A scope job's grounding, resolved when it runs (``JobWork``'s ``scope_grounding``),
        so a job a restart re-runs writes from the material as it is then."""
        return (await self.resolve(scope_from(scope))).grounding

    async def resolve(self, scope: Scope) -> ScopeMaterial:
        """The scope's grounding and label; ``EmptyScope`` when there is nothing in it."""
        snapshot = await asyncio.to_thread(self._graph.snapshot)  # a cold read folds: CPU
        found = await asyncio.to_thread(self._material, scope, snapshot)
        if found.empty:
            raise EmptyScope(self._empty_message(scope, found.label))
        return found

    def _material(self, scope: Scope, snapshot: GraphSnapshot) -> ScopeMaterial:
        if scope.type == "graph":
            nodes = central_nodes(snapshot)
            total = len(snapshot.nodes)
            label = ("The whole graph" if len(nodes) == total else
                     f"The whole graph (its {len(nodes)} most central ideas of {total})")
            return material(nodes, label)
        if scope.type == "source":
            return self._source(str(scope.id), snapshot)
        if scope.type == "session":
            return self._session(str(scope.id), snapshot)
        if scope.type == "topic":
            node = snapshot.node(str(scope.id))
            if node is None:
                raise NotFound(f"No idea {scope.id!r} in the knowledge graph: pick a topic on the "
                               "map (or from GET /api/graph).")
            return material(topic_family(snapshot, node.id), node.text)
        if scope.type == "cluster":
            cluster = next((c for c in snapshot.clusters if c.id == scope.id), None)
            if cluster is None:
                raise NotFound(f"No cluster {scope.id!r} in the knowledge graph (clusters are in "
                               "GET /api/graph).")
            members = set(cluster.node_ids)
            nodes = [n for n in snapshot.nodes if n.id in members]
            return material(central_nodes(snapshot, among=nodes), cluster.label or str(scope.id))
        known = [n for i in dict.fromkeys(scope.node_ids) if (n := snapshot.node(i)) is not None]
        if scope.node_ids and not known:
            raise NotFound("None of the selected ideas is in the knowledge graph (any more): "
                           "select ideas on the map again, then try again.")
        label = (known[0].text if len(known) == 1
                 else f"{len(known)} selected ideas" if known else "The selection")
        return material(known[:MAX_SCOPE_FACTS], label)

    def _source(self, source_id: str, snapshot: GraphSnapshot) -> ScopeMaterial:
        source = self._sources.get(source_id)
        if source is None:
            raise NotFound(f"No imported source {source_id!r}: the ids are in GET /api/sources "
                           "and `studyhall sources --json`.")
        chunks = self._index.chunks(source_id)
        return material(citing(snapshot, source_id), source.path, chunk_passages(chunks))

    def _session(self, chat_id: str, snapshot: GraphSnapshot) -> ScopeMaterial:
        record = self._chats.get(chat_id)
        if record is None:
            raise NotFound(f"No session {chat_id!r}: the ids are in GET /api/chats.")
        label = record.title or record.topic or "A session"
        return material(citing(snapshot, chat_id), label,
                        transcript_passages(record.messages, chat_id))

    @staticmethod
    def _empty_message(scope: Scope, label: str) -> str:
        if scope.type == "graph":
            return ("The knowledge graph is empty: study in a session or import notes first, "
                    "then make artifacts from it.")
        if scope.type == "source":
            return (f"{label} has no passages or ideas to write from yet: wait for its import "
                    "to finish (or import it again), then try again.")
        if scope.type == "session":
            return (f"The session {label!r} has no conversation yet: study in it first, then "
                    "make artifacts from it.")
        if scope.type == "selection":
            return "Nothing is selected: select one or more ideas on the map, then try again."
        return (f"{label} has nothing to write from yet: study it in a session or import notes "
                "about it first.")

