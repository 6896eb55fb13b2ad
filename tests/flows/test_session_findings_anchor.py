"""A session's findings land where they belong (issue 28 item 5): a scripted session over a graph
of note topics, extracted through the production wiring, then read back through
``GET /api/graph/nodes/{id}`` as the dock shows it ("builds on" / "leads to", and
``from_session``). A finding clearly about a note topic builds on it; one that shares only a stop
word or one common word with a topic, or nothing at all, lands on the session's own topic, named
for the session — never under another finding. Once judged by words (no embedding model loads),
once by the app's own embedder."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studyhall.core.contracts.graph import EdgeAdded, Evidence, PropositionCreated, RunCheckpoint
from studyhall.core.library.extraction.merger import node_id_for
from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.embedder import UnloadableEmbedder
from tests.support.runs import finished
from tests.support.session_api import PORT, scripted_app, write_script
from tests.support.trees_lesson import TREE, hold_session, script

AT = datetime(2026, 1, 1, tzinfo=UTC)
NOTE = "note:graphs.md"
TOPIC, HEADING, OTHER = "Graph trees", "Graph trees: edges and vertices", "Baking bread"
SESSION_TITLE = "Trees"  # what the scripted labeler titles the session
CYCLES, WHALES = "Trees have no cycles.", "Whales sing underwater."
STOP_ONLY = "The whale is the largest animal of the sea."  # shares only "the" with "The ..."
PARK = "Trees in a park give shade in summer."  # one common word ("trees") with the topic
BREAD = "Baking bread needs flour, water and yeast."


def finding(key: str, text: str, quote: str = "I think") -> dict[str, Any]:
    return {"key": key, "text": text, "evidence": [{"message_id": "m_learner", "quote": quote}]}


EXTRACTION = {
    "propositions": [
        {**finding("p1", TREE, "a tree with 5 vertices has 4 edges"), "understanding": "solid"},
        finding("p2", CYCLES, "one fewer than its vertices"),
        finding("p3", WHALES), finding("p4", STOP_ONLY), finding("p5", PARK),
        finding("p6", BREAD),
    ],
    "edges": [],
}
KEYS = [p["key"] for p in EXTRACTION["propositions"]]


def seed_topics(services) -> None:
    """What a model-free import of notes makes: a topic, a heading under it, and an unrelated
    note's topic."""
    graph = services.graph_store
    graph.append_propositions([
        PropositionCreated(id=f"prp_{i}", node_id=node_id_for(text), text=text, source_id=NOTE,
                           evidence=(Evidence(source_id=NOTE, message_id=f"{NOTE}#{i}",
                                              quote=f"# {text}"),), run_id="run_notes", at=AT)
        for i, text in enumerate((TOPIC, HEADING, OTHER, "The French revolution"))])
    graph.append_edges([EdgeAdded.model_validate({
        "id": "edg_h", "from": node_id_for(HEADING), "to": node_id_for(TOPIC),
        "relation": "supports", "source_id": NOTE, "run_id": "run_notes", "at": AT})])
    graph.append_checkpoint(RunCheckpoint(id="run_notes", source_id=NOTE, started_at=AT,
                                          finished_at=AT))


async def extracted(tmp_path: Path, embedder: Any = None):
    """The script and services of the session over the seeded note topics."""
    keep = {"verdicts": [{"key": k, "keep": True, "reason": "backed"} for k in KEYS]}
    path = write_script(tmp_path / "script.json", script([{"json": EXTRACTION}], [{"json": keep}]))
    services = build_services(load_config(port=PORT, script_path=path))
    if embedder is not None:
        services = replace(services, embedder=embedder)
    seed_topics(services)
    return path, services


async def test_session_findings_land_under_their_topic_or_the_sessions_own(tmp_path: Path):
    # No embedding model loads here: the content-word score judges (its calibrated minimum).
    path, services = await extracted(tmp_path, UnloadableEmbedder())
    async with scripted_app(path, services=services) as (api, runtime):
        chat_id = await hold_session(api, runtime)
        run_id = (await api.http.post(f"/api/chats/{chat_id}/extract")).json()["run_id"]
        run = await finished(runtime.library.extraction_run(run_id))
        assert run.status == "done", run.error

        graph = (await api.http.get("/api/graph")).json()
        ids = {n["text"]: n["id"] for n in graph["nodes"]}
        assert {TREE, CYCLES, WHALES, STOP_ONLY, PARK, BREAD, SESSION_TITLE} <= set(ids)

        async def detail(text: str) -> dict:
            r = await api.http.get(f"/api/graph/nodes/{ids[text]}")
            assert r.status_code == 200, r.text
            return r.json()

        def texts(side: list[dict]) -> list[str]:
            return [x["text"] for x in side]

        # Clearly about a note topic: builds on it (the heading it shares "vertices", "edges"
        # with; the bread finding, the bread note).
        assert texts((await detail(TREE))["links"]["builds_on"]) == [HEADING]
        assert texts((await detail(BREAD))["links"]["builds_on"]) == [OTHER]
        # One shared word ("trees"), only a stop word, or nothing: the session's topic, each
        # on its own — not under the session's first finding, not under one another.
        for text in (CYCLES, WHALES, STOP_ONLY, PARK):
            assert texts((await detail(text))["links"]["builds_on"]) == [SESSION_TITLE], text
        session_topic = await detail(SESSION_TITLE)
        assert sorted(texts(session_topic["links"]["leads_to"])) == sorted(
            [CYCLES, WHALES, STOP_ONLY, PARK])
        assert session_topic["links"]["builds_on"] == []
        # The note topic lists only what leads on from it: its heading, from notes.
        topic = (await detail(TOPIC))["links"]
        assert {(x["text"], x["session"]) for x in topic["leads_to"]} == {(HEADING, None)}
        assert (await detail(HEADING))["links"]["builds_on"][0]["relation"] == "supports"

        # The dock says where a session finding came from; a note's topic came from no session.
        came_from = {"id": chat_id, "title": SESSION_TITLE}
        for text in (TREE, WHALES, SESSION_TITLE):
            assert (await detail(text))["from_session"] == came_from, text
        assert (await detail(TOPIC))["from_session"] is None

        # No session finding is left floating: each reaches a note topic or the session topic.
        up: dict[str, list[str]] = {}
        for e in graph["edges"]:
            up.setdefault(e["from"], []).append(e["to"])
        roots = {ids[TOPIC], ids[HEADING], ids[OTHER], ids[SESSION_TITLE]}
        for text in (TREE, CYCLES, WHALES, STOP_ONLY, PARK, BREAD):
            seen, todo = set(), [ids[text]]
            while todo:
                node = todo.pop()
                seen.add(node)
                todo += [n for n in up.get(node, []) if n not in seen]
            assert seen & roots, text

        # On the map the session topic is a topic of its own (one node per session topic,
        # issue 28 item 1): its findings are its ideas, drawn as its satellites at topic zoom.
        body = (await api.http.get("/api/graph/map")).json()
        at = {node_id: i for i, node_id in enumerate(body["ids"])}
        own = at[ids[SESSION_TITLE]]
        assert body["topic"][own] == -1
        for text in (CYCLES, WHALES, STOP_ONLY, PARK):
            assert body["topic"][at[ids[text]]] == own, text
        assert body["topic"][at[ids[TREE]]] == -1  # under a heading node: no topic of a note

        missing = await api.http.get("/api/graph/nodes/nope")
        assert missing.status_code == 404 and "reload the graph" in missing.json()["message"]
        # The separate links route is gone: the node's detail carries them.
        assert (await api.http.get(f"/api/graph/links/{ids[TOPIC]}")).status_code == 404
        assert sum(n["text"] == SESSION_TITLE for n in graph["nodes"]) == 1  # one per session


async def test_with_the_apps_embedder_meaning_judges_at_its_calibrated_minimum(tmp_path: Path):
    path, services = await extracted(tmp_path)  # the app's own embedder (bundled MiniLM)
    async with scripted_app(path, services=services) as (api, runtime):
        chat_id = await hold_session(api, runtime)
        run_id = (await api.http.post(f"/api/chats/{chat_id}/extract")).json()["run_id"]
        assert (await finished(runtime.library.extraction_run(run_id))).status == "done"
        graph = (await api.http.get("/api/graph")).json()
        ids = {n["text"]: n["id"] for n in graph["nodes"]}

        async def builds_on(text: str) -> list[str]:
            r = await api.http.get(f"/api/graph/nodes/{ids[text]}")
            return [x["text"] for x in r.json()["links"]["builds_on"]]

        # MiniLM puts the tree finding near both tree topics (0.63 each): either is right.
        assert (await builds_on(TREE)) in ([TOPIC], [HEADING])
        assert await builds_on(BREAD) == [OTHER]  # 0.71
        # "Trees have no cycles." is 0.43 from "Graph trees" (under 0.5); the park's trees 0.35.
        for text in (CYCLES, WHALES, STOP_ONLY, PARK):
            assert await builds_on(text) == [SESSION_TITLE], text
