"""Issue 28 item 3: a topic's mastery rolls up from its own evidence and its ideas' (the rule in
docs/learner.md, ``core/library/learner/rollup.py``): a topic with no ideas is what its own
evidence says, ideas that disagree make it shaky, untried ideas never pull it down, a link to
another note's topic is not an idea — and the map and the dock carry the rolled-up state."""

from __future__ import annotations

from datetime import UTC, datetime

import orjson
from studyhall.adapters.fakes import InMemoryGraphStore
from studyhall.core.contracts.graph import (
    EdgeAdded,
    Evidence,
    PropositionCreated,
    QuizEvent,
    RunCheckpoint,
)
from studyhall.core.library.graph.snapshot import graph_snapshot
from studyhall.core.library.learner.rollup import roll_up, topic_masteries
from studyhall.server.http.graph_detail import EdgeIndex, node_detail
from studyhall.server.http.graph_map import STATE_NAMES, GraphMap

AT = datetime(2026, 3, 1, tzinfo=UTC)
NOTE, OTHER = "note_cells", "note_energy"


def _node(node_id: str, text: str, source: str, message: str, quote: str) -> PropositionCreated:
    return PropositionCreated(id=f"prp_{node_id}", node_id=node_id, text=text, evidence=(
        Evidence(source_id=source, message_id=message, quote=quote),), source_id=source,
        run_id="r1", at=AT)


def _edge(a: str, b: str) -> EdgeAdded:
    return EdgeAdded.model_validate({"id": f"e_{a}_{b}", "from": a, "to": b,
                                     "relation": "supports", "source_id": NOTE, "run_id": "r1",
                                     "at": AT})


def _quiz(node_id: str, verdict: str, n: int) -> QuizEvent:
    return QuizEvent(id=f"q_{node_id}_{n}", node_id=node_id, verdict=verdict, source_id="chat",
                     tool_call_id=f"call_{node_id}_{n}", question_index=0, run_id="r1", at=AT)


def graph(quizzes: list[QuizEvent]):
    store = InMemoryGraphStore()
    store.append_propositions([
        _node("cells", "Cells", NOTE, f"{NOTE}#", "# Cells"),
        _node("energy", "Energy", OTHER, f"{OTHER}#", "# Energy"),
        _node("membrane", "The membrane holds the cell together.", NOTE,
              f"{NOTE}#Parts", "The membrane holds the cell together."),
        _node("nucleus", "The nucleus holds the genes.", NOTE, f"{NOTE}#", "The nucleus holds "
              "the genes."),
        _node("ribosome", "Ribosomes make proteins.", NOTE, f"{NOTE}#Parts",
              "Ribosomes make proteins."),
    ])
    # Three ideas of Cells, and a link Cells -> Energy (two topics: no idea).
    store.append_edges([_edge("membrane", "cells"), _edge("nucleus", "cells"),
                        _edge("ribosome", "cells"), _edge("cells", "energy")])
    store.append_quiz_events(quizzes)
    store.append_checkpoint(RunCheckpoint(id="r1", source_id=NOTE, started_at=AT,
                                          finished_at=AT))
    return graph_snapshot(store)


def test_a_topic_with_no_ideas_is_what_its_own_evidence_says():
    assert roll_up("solid", ()).state == "solid"
    assert roll_up("not-tried", ()).state == "not-tried"
    snap = graph([_quiz("energy", "correct", 0)])
    assert "energy" not in topic_masteries(snap)  # a link from Cells makes Cells no idea of it
    assert snap.node("energy").state == "solid"


def test_untried_ideas_never_pull_a_topic_down():
    snap = graph([_quiz("membrane", "correct", 0), _quiz("membrane", "correct", 1)])
    cells = topic_masteries(snap)["cells"]
    assert (cells.own, cells.state) == ("not-tried", "solid")
    assert (cells.ideas, cells.tried, cells.solid, cells.shaky) == (3, 1, 1, 0)
    assert roll_up("not-tried", ["not-tried", "not-tried"]).state == "not-tried"
    assert roll_up("solid", ["not-tried", "not-tried"]).state == "solid"


def test_ideas_that_disagree_make_the_topic_shaky():
    snap = graph([_quiz("membrane", "correct", 0), _quiz("membrane", "correct", 1),
                  _quiz("nucleus", "miss", 0)])
    states = {n: snap.node(n).state for n in ("membrane", "nucleus")}
    assert states == {"membrane": "solid", "nucleus": "shaky"}
    cells = topic_masteries(snap)["cells"]
    assert (cells.state, cells.tried, cells.solid, cells.shaky) == ("shaky", 2, 1, 1)
    assert roll_up("shaky", ["solid"]).state == "shaky"  # its own evidence counts too
    assert roll_up("corrected-misconception", ["solid"]).state == "corrected-misconception"


def test_the_map_and_the_dock_carry_the_rolled_up_state():
    snap = graph([_quiz("ribosome", "correct", 0), _quiz("ribosome", "correct", 1)])
    body = orjson.loads(GraphMap().part(snap))
    at = body["ids"].index("cells")
    assert STATE_NAMES[body["states"][at]] == "not-tried"  # its own, unchanged
    assert STATE_NAMES[body["topic_states"][at]] == "solid"  # with its ideas'
    idea = body["ids"].index("ribosome")
    assert body["topic_states"][idea] == body["states"][idea]  # an idea rolls nothing up
    detail = node_detail(snap, "cells", EdgeIndex())
    assert detail["node"]["state"] == "not-tried"
    assert detail["mastery_rollup"] == {"state": "solid", "own": "not-tried", "ideas": 3,
                                        "tried": 1, "solid": 1, "shaky": 0}
    assert node_detail(snap, "energy", EdgeIndex())["mastery_rollup"]["ideas"] == 0
