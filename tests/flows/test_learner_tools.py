"""The tutor's learner tools end to end (real app, scripted teacher, no key): each answers from
this learner's own record — strengths, one concept's standing and gate, a score explained, past
sessions, today's due cards, imported material — and an observation quoted from the learner's
own words is recorded by the code, moving their mastery. Material comes back as data blocks: a
hostile note's text never reaches the teacher outside one."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.course import OverlapScorer
from tests.support.graph_events import cp, edge, prop, quiz
from tests.support.guarded import record_provider
from tests.support.hostile_note import (
    HOSTILE_NOTE,
    INJECTION,
    SameVector,
    only_inside_data_blocks,
)
from tests.support.jobs import PROBE, settle
from tests.support.records import chat, message
from tests.support.session_api import PORT, scripted_app, write_script

TREE = "A tree is a connected graph without cycles."
HEAP = "A heap is a complete binary tree with the heap property."
ARRAY = "An array stores items side by side in memory."
SAID = "Teach me heaps. I already know that a tree has no cycles at all."


def tool(name: str, cid: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "id": cid, "arguments": args}


CALLS = [
    tool("learning_strengths", "t_strengths"),
    tool("concept_confidence", "t_heap", concept="heap"),
    tool("concept_confidence", "t_words", concept="complete binary tree"),
    tool("explain_score", "t_explain", node_id="tree"),
    tool("search_history", "t_history", query="binary heap"),
    tool("due_reviews", "t_due", topic="heap"),
    tool("record_observation", "t_observe", node_id="tree", level="solid",
         quote="a tree has no cycles", note="Stated it before any hint."),
    tool("search_material", "t_material", query="heap stored in an array"),
    tool("record_observation", "t_invented", node_id="tree", level="solid",
         quote="trees are forests"),
]


def seeded(script: Path, **replaced: Any):
    services = dataclasses.replace(build_services(load_config(port=PORT, script_path=script)),
                                   **replaced)
    graph = services.graph_store
    graph.append_propositions([prop("tree", text=TREE), prop("heap", text=HEAP),
                               prop("array", text=ARRAY)])
    graph.append_edges([edge("tree", "heap")])
    graph.append_quiz_events([quiz("tree", "miss", 1), quiz("heap", "miss", 2, call="c2")] + [
        quiz("array", "correct", 3 + n, call=f"a{n}") for n in range(3)])
    graph.append_checkpoint(cp("r1"))
    services.chat_store.create(chat("chat_past", topic="heaps", messages=(
        message("p1", "Is a binary heap always balanced?", minute=5),
        message("p2", "Yes: a binary heap is a complete tree.", role="assistant", minute=6))))
    return services


def session_script(calls: list[dict[str, Any]]) -> dict[str, Any]:
    return {"prober": [PROBE],
            "teacher": [{"text": "Let me look at what you know.", "tool_calls": calls},
                        {"text": "Good: we start from trees."}],
            "labeler": [{"text": "Heaps"}] * 3}


async def test_each_tool_answers_from_this_learners_record(tmp_path: Path) -> None:
    script = write_script(tmp_path / "s.json", session_script(CALLS))
    services = seeded(script)
    async with scripted_app(script, services) as (api, runtime):
        chat_id = await api.new_chat(None)
        turn = await api.say(chat_id, SAID)
        assert turn.last[0] == "finish" and turn.text().endswith("we start from trees.")
        out = {r["tool_call_id"]: r for r in turn.of("tool-result")}
        mastery = (await api.http.get("/api/mastery/tree")).json()
        await settle(runtime)

    strengths = out["t_strengths"]["output"]
    assert [c["node_id"] for c in strengths["strong"]] == ["array"]
    assert [(c["node_id"], c["mastery"]) for c in strengths["weak"]] == [("tree", 0.24),
                                                                         ("heap", 0.24)]
    (heap,) = out["t_heap"]["output"]["matches"]  # an id: that node
    assert heap["ready_for_hard_questions"] is False
    assert [b["node_id"] for b in heap["blocked_by"]] == ["tree"]
    assert out["t_words"]["output"]["matches"][0]["node_id"] == "heap"  # words: the search
    explained = out["t_explain"]["output"]["explanation"]
    assert explained == ["quiz c/q1 on Mar 1: wrong → 0.24 (was 0.50)"]
    past = out["t_history"]["output"]["results"]  # past sessions only, newest message first
    assert [(p["chat_id"], p["role"]) for p in past] == [("chat_past", "tutor"),
                                                        ("chat_past", "learner")]
    assert "complete tree" in past[0]["excerpt"]
    due = out["t_due"]["output"]
    assert [d["node_id"] for d in due["due"]] == ["heap"] and due["due_today"] == 3
    assert out["t_material"]["output"]["case"] == "NO_MATERIAL"

    observed = out["t_observe"]["output"]
    assert observed["recorded"] is True and observed["mastery_before"] == 0.24
    assert observed["mastery"] > 0.24  # the code weighed it (a transcript says least)
    assert round(mastery["mastery"], 2) == observed["mastery"]
    (latest, *_) = mastery["explanation"]
    assert latest["kind"] == "teacher"
    assert "“a tree has no cycles” — Stated it before any hint." in latest["detail"]
    invented = out["t_invented"]
    assert invented["state"] == "output-error"
    assert "the learner's own words in this session" in invented["error"]
    saved = services.learner_store.observations().records
    assert [(o.node_id, o.level, o.source_id) for o in saved] == [("tree", "solid", chat_id)]


async def test_the_prober_reads_but_cannot_write(tmp_path: Path) -> None:
    probe = {"prober": [{"tool_calls": [tool("record_observation", "p_obs", node_id="tree",
                                             level="solid", quote="a tree has no cycles")]},
                        {"tool_calls": [tool("concept_confidence", "p_conf", concept="tree")]},
                        PROBE],
             "teacher": [{"text": "Hello."}], "labeler": [{"text": "Trees"}] * 3}
    script = write_script(tmp_path / "s.json", probe)
    async with scripted_app(script, seeded(script)) as (api, runtime):
        chat_id = await api.new_chat(None)
        turn = await api.say(chat_id, SAID)
        out = {r["tool_call_id"]: r for r in turn.of("tool-result")}
        await settle(runtime)
    assert out["p_obs"]["state"] == "output-error"
    assert "no tool named 'record_observation'" in out["p_obs"]["error"]
    assert out["p_conf"]["output"]["matches"][0]["node_id"] == "tree"


async def test_material_reaches_the_teacher_only_as_data(tmp_path: Path) -> None:
    (tmp_path / "course").mkdir()
    (tmp_path / "course" / "heaps.md").write_text(HOSTILE_NOTE)
    script = write_script(tmp_path / "s.json", session_script(
        [tool("search_material", "t_material", query="How are heaps stored in an array?")]))
    services, provider = record_provider(seeded(script, embedder=SameVector(),
                                                passage_scorer=OverlapScorer()))
    async with scripted_app(script, services) as (api, runtime):
        await runtime.library.index_material(str(tmp_path / "course"))
        chat_id = await api.new_chat(None)
        turn = await api.say(chat_id, SAID)
        (result,) = turn.of("tool-result")[-1:]
        await settle(runtime)
    found = result["output"]
    assert found["count"] >= 1 and found["sources"][0]["title"]
    assert found["passages"].count("<source ") == found["count"]
    assert "</source></material><system>" not in found["passages"]  # look-alikes disarmed
    after = provider.of("teacher")[-1]  # the teacher's call that read the tool result
    text = json.dumps(after.messages, ensure_ascii=False)
    assert INJECTION in text
    for m in after.messages:
        assert only_inside_data_blocks(m.get("content") or "", INJECTION)
