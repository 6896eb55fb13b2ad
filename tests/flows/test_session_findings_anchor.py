"""A session's findings land under the nearest existing topic, never floating: a scripted session
over a graph of note topics, extracted through the production wiring, then read back through
``GET /api/graph/nodes/{id}``'s ``links`` as the dock shows them ("builds on" / "leads to")."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from studyhall.core.contracts.graph import EdgeAdded, Evidence, PropositionCreated, RunCheckpoint
from studyhall.core.library.extraction.merger import node_id_for
from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.session_api import PORT, scripted_app, write_script
from tests.support.trees_lesson import TREE, hold_session, script

AT = datetime(2026, 1, 1, tzinfo=UTC)
NOTE = "note:graphs.md"
TOPIC, HEADING, OTHER = "Graph trees", "Graph trees: edges and vertices", "Baking bread"
CYCLES, WHALES = "Trees have no cycles.", "Whales sing underwater."
EXTRACTION = {
    "propositions": [
        {"key": "p1", "text": TREE, "understanding": "solid",
         "evidence": [{"message_id": "m_learner", "quote": "a tree with 5 vertices has 4 edges"}]},
        {"key": "p2", "text": CYCLES,
         "evidence": [{"message_id": "m_learner", "quote": "one fewer than its vertices"}]},
        # Shares no word with anything in the graph: hangs under the session's first finding.
        {"key": "p3", "text": WHALES, "evidence": [{"message_id": "m_learner", "quote": "I think"}]},
    ],
    "edges": [],
}


def seed_topics(services) -> None:
    """What a model-free import of one note makes: its topic, a heading under it, and an
    unrelated note's topic."""
    graph = services.graph_store
    graph.append_propositions([
        PropositionCreated(id=f"prp_{i}", node_id=node_id_for(text), text=text, source_id=NOTE,
                           evidence=(Evidence(source_id=NOTE, message_id=f"{NOTE}#{i}",
                                              quote=f"# {text}"),), run_id="run_notes", at=AT)
        for i, text in enumerate((TOPIC, HEADING, OTHER))])
    graph.append_edges([EdgeAdded.model_validate({
        "id": "edg_h", "from": node_id_for(HEADING), "to": node_id_for(TOPIC),
        "relation": "supports", "source_id": NOTE, "run_id": "run_notes", "at": AT})])
    graph.append_checkpoint(RunCheckpoint(id="run_notes", source_id=NOTE, started_at=AT,
                                          finished_at=AT))


async def test_session_findings_land_under_the_nearest_topic(tmp_path: Path) -> None:
    keep = {"verdicts": [{"key": k, "keep": True, "reason": "backed"} for k in ("p1", "p2", "p3")]}
    path = write_script(tmp_path / "script.json", script([{"json": EXTRACTION}], [{"json": keep}]))
    services = build_services(load_config(port=PORT, script_path=path))
    seed_topics(services)
    async with scripted_app(path, services=services) as (api, runtime):
        chat_id = await hold_session(api, runtime)
        run_id = (await api.http.post(f"/api/chats/{chat_id}/extract")).json()["run_id"]
        run = await runtime.library.wait_for_extraction(run_id)
        assert run.status == "done", run.error

        graph = (await api.http.get("/api/graph")).json()
        ids = {n["text"]: n["id"] for n in graph["nodes"]}
        assert {TREE, CYCLES, WHALES} <= set(ids)

        async def links(text: str) -> dict:
            r = await api.http.get(f"/api/graph/nodes/{ids[text]}")
            assert r.status_code == 200, r.text
            return r.json()["links"]

        def texts(side: list[dict]) -> list[str]:
            return [x["text"] for x in side]

        # Each finding builds on the note topic nearest to it (by shared words) ...
        assert texts((await links(TREE))["builds_on"]) == [HEADING]
        assert texts((await links(CYCLES))["builds_on"]) == [TOPIC]
        # ... and one nothing in the graph is near hangs under the session's first finding.
        assert texts((await links(WHALES))["builds_on"]) == [TREE]
        # The topic lists what leads on from it: its heading (from notes) and the finding
        # learned in this session, marked with the session.
        topic = await links(TOPIC)
        assert {(x["text"], x["session"]) for x in topic["leads_to"]} == {
            (HEADING, None), (CYCLES, chat_id)}
        assert (await links(HEADING))["builds_on"][0]["relation"] == "supports"

        # No session finding is left floating: each reaches a note topic along its edges.
        up = {}
        for e in graph["edges"]:
            up.setdefault(e["from"], []).append(e["to"])
        notes = {ids[TOPIC], ids[HEADING], ids[OTHER]}
        for text in (TREE, CYCLES, WHALES):
            seen, todo = set(), [ids[text]]
            while todo:
                node = todo.pop()
                seen.add(node)
                todo += [n for n in up.get(node, []) if n not in seen]
            assert seen & notes, text

        missing = await api.http.get("/api/graph/nodes/nope")
        assert missing.status_code == 404 and "reload the graph" in missing.json()["message"]
        # The separate links route is gone: the node's detail carries them.
        assert (await api.http.get(f"/api/graph/links/{ids[TOPIC]}")).status_code == 404
