"""The teacher's opening context knows the learner: after the propositions nearest the session's
topic come "Weak here: …" and "Due for review: …" lines with mastery figures, and the gaps that
will refuse hard questions — from the learner model, over the same graph read."""

from __future__ import annotations

from dataclasses import replace

from studyhall.core.contracts.chat import TextPart
from studyhall.core.contracts.learner import LearnerObserved
from studyhall.server.app import build_runtime, build_services

from tests.support.embedder import HashEmbedder
from tests.support.graph_events import cp, edge, prop, quiz
from tests.support.library_session import at
from tests.support.server import make_config
from tests.support.session_start import context_for

TREE = "A tree is a connected graph without cycles."
HEAP = "A heap is a complete binary tree with the heap property."
ARRAY = "An array stores items side by side in memory."


def seeded_runtime():
    services = replace(build_services(make_config()), embedder=HashEmbedder())
    graph = services.graph_store
    graph.append_propositions([prop("tree", text=TREE), prop("heap", text=HEAP),
                               prop("array", text=ARRAY)])
    graph.append_edges([edge("tree", "heap")])
    graph.append_quiz_events([quiz("tree", "miss", 1), quiz("heap", "miss", 2, call="c2"),
                              quiz("array", "correct", 3, call="c3")])
    graph.append_checkpoint(cp("r1"))
    return build_runtime(services)


async def test_the_context_names_weak_due_and_gated_concepts_near_the_topic():
    runtime = seeded_runtime()
    _, steer = await context_for(runtime, "a heap is a tree")
    assert steer is not None
    lines = next(p for p in steer.parts if isinstance(p, TextPart)).text.splitlines()
    nodes = steer.parts[2].data["nodes"]
    assert [n["id"] for n in nodes] == ["heap", "tree"]  # the array is not near
    weak, due, gaps = lines[1 + len(nodes):]
    assert weak == ("Weak here (mastery below 0.8, weakest first): "
                    f"“{HEAP}” (heap) 0.24; “{TREE}” (tree) 0.24.")
    # Both are new cards, in the queue's order: a prerequisite before what builds on it.
    assert due == (f"Due for review: “{TREE}” (tree) mastery 0.24, recall new card; "
                   f"“{HEAP}” (heap) mastery 0.24, recall new card.")
    assert gaps == ("Gaps — no hard questions until each prerequisite is at 0.7: "
                    f"“{HEAP}” (heap) needs “{TREE}” (tree) (now 0.24).")
    data = steer.parts[2].data
    assert [c["node_id"] for c in data["weak"]] == ["heap", "tree"]
    assert [g["node_id"] for g in data["gaps"]] == ["heap"]


async def test_the_teachers_observations_count_in_the_context():
    runtime = seeded_runtime()
    runtime.services.learner_store.append_observations([LearnerObserved(
        id="lob_1", node_id="tree", level="solid", note="“no cycles”", source_id="chat_0",
        at=at(30))])
    _, steer = await context_for(runtime, "a heap is a tree")
    text = next(p for p in steer.parts if isinstance(p, TextPart)).text
    weak = next(line for line in text.splitlines() if line.startswith("Weak here"))
    assert "(tree) 0.24" not in weak and "(heap) 0.24" in weak
    assert "(tree) (now 0.24)" not in text
