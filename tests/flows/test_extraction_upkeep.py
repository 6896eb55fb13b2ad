"""A session extracted into the graph gets the graph upkeep at once: its new nodes are embedded,
clustered (and the cluster named by the labeler) and placed, without waiting for an import —
so the home graph never has to place them itself."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

from studyhall.adapters.fakes import InMemoryGraphStore, InMemorySourceStore
from studyhall.core.library.upkeep.vector_cache import VectorCache
from studyhall.server.app import build_services
from studyhall.server.config import load_config
from studyhall.server.runtime.library.graph_reader import GraphReader
from studyhall.server.runtime.library.graph_upkeep import GraphUpkeep
from studyhall.server.runtime.supervisor import Supervisor

from tests.support.embedder import HashEmbedder
from tests.support.runs import finished
from tests.support.session_api import PORT, scripted_app, write_script
from tests.support.trees_lesson import LEARNER, hold_session, script

# Two statements quoted from the learner's message, near each other in meaning.
FIRST = "A tree with 5 vertices has 4 edges."
SECOND = "A tree with 5 vertices has one fewer edge than vertices."
EXTRACTION = {
    "propositions": [
        {"key": "p1", "text": FIRST,
         "evidence": [{"message_id": "m_learner", "quote": "a tree with 5 vertices has 4 edges"}]},
        {"key": "p2", "text": SECOND,
         "evidence": [{"message_id": "m_learner", "quote": "one fewer than its vertices"}]},
    ],
    "edges": [{"from": "p1", "to": "p2", "kind": "supports"}],
}
KEEP = {"verdicts": [{"key": "p1", "keep": True, "reason": "backed"},
                     {"key": "p2", "keep": True, "reason": "backed"}]}


async def test_a_merged_extraction_embeds_clusters_and_places_its_nodes(tmp_path: Path) -> None:
    assert "one fewer than its vertices" in LEARNER
    steps = script([{"json": EXTRACTION}], [{"json": KEEP}])
    steps["labeler"] = [{"text": "Trees"}, {"text": "Counting tree edges"}]  # title, cluster
    path = write_script(tmp_path / "script.json", steps)
    services = build_services(load_config(port=PORT, script_path=path))
    # a fast stand-in for MiniLM, wired before the app
    services = replace(services, embedder=HashEmbedder())
    async with scripted_app(path, services=services) as (api, runtime):
        chat_id = await hold_session(api, runtime)
        await runtime.supervisor.idle()  # nothing merged yet: nothing scheduled by the session
        assert services.graph_store.positions() == {}

        run_id = (await api.http.post(f"/api/chats/{chat_id}/extract")).json()["run_id"]
        run = await finished(runtime.library.extraction_run(run_id))
        # The two findings and the session's topic, named for the session (its title, "Trees"):
        # near nothing in an empty graph, they hang under it (issue 28 item 5).
        assert run.status == "done" and run.propositions == 3, run.drops
        await asyncio.wait_for(runtime.supervisor.idle(), 30)

        graph = (await api.http.get("/api/graph")).json()
        assert {n["text"] for n in graph["nodes"]} == {FIRST, SECOND, "Trees"}
        assert all(n["position"] is not None for n in graph["nodes"])  # placed by the server
        # Clusters are by vectors: the two findings; the session topic's title is not like them
        # (its ideas reach it by their edges), so it is a region of its own (at least five
        # regions, or one per note the threshold left alone: issue 28).
        cluster, alone = graph["clusters"]
        assert cluster["label"] == "Counting tree edges"  # named by the (scripted) labeler
        assert set(cluster["node_ids"]) == {n["id"] for n in graph["nodes"] if n["text"] != "Trees"}
        assert [n["text"] for n in graph["nodes"] if n["id"] in alone["node_ids"]] == ["Trees"]
        # The vectors were saved: a cache that reads the store again has both.
        cache = VectorCache(services.embedder, services.graph_store)
        assert all(cache.get(t) is not None for t in (FIRST, SECOND))

        # Nothing new to merge: a second run schedules nothing and moves nothing.
        positions = services.graph_store.positions()
        again = (await api.http.post(f"/api/chats/{chat_id}/extract")).json()["run_id"]
        assert (await finished(runtime.library.extraction_run(again))).batches_done == 0
        await runtime.supervisor.idle()
        assert services.graph_store.positions() == positions


async def test_a_merge_during_a_running_refresh_gets_a_refresh_of_its_own() -> None:
    store = InMemoryGraphStore()
    supervisor = Supervisor()
    upkeep = GraphUpkeep(graph_store=store, source_store=InMemorySourceStore(), reader=GraphReader(store), embedder=None,
                         chat_model=None, prompt=str, supervisor=supervisor)
    first = upkeep.schedule()
    assert upkeep.schedule() is first  # still waiting to start: requests coalesce
    await asyncio.sleep(0)  # it starts, and reads the graph as it is now
    second = upkeep.schedule()  # so a later merge is not folded into it
    assert second is not first and upkeep.schedule() is second
    await asyncio.wait_for(supervisor.idle(), 30)
    assert first.done() and second.done() and second.result().problems == []
