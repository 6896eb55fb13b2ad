"""Graph ledger events about one chat, built from a node id and a minute: propositions, quiz
results, observations, edges and run checkpoints (for fold, snapshot and body tests)."""

from __future__ import annotations

from studyhall.core.contracts.graph import (
    EdgeAdded,
    Evidence,
    PropositionCreated,
    QuizEvent,
    RunCheckpoint,
    UnderstandingObserved,
)

from tests.support.library_session import CHAT, at


def prop(node: str, run: str = "r1", text: str | None = None, minute: int = 0):
    return PropositionCreated(id=f"prp_{node}_{run}", node_id=node, text=text or f"Fact {node}.",
                              evidence=(Evidence(source_id=CHAT, message_id="m_1", quote="q"),),
                              source_id=CHAT, run_id=run, at=at(minute))


def quiz(node: str, verdict: str, minute: int, run: str = "r1", call: str = "c", q: int = 0):
    return QuizEvent(id=f"quz_{node}_{call}_{q}_{run}", node_id=node, verdict=verdict,
                     source_id=CHAT, tool_call_id=call, question_index=q, run_id=run,
                     at=at(minute))


def obs(node: str, level: str, minute: int, run: str = "r1"):
    return UnderstandingObserved(id=f"obs_{node}_{level}_{minute}", node_id=node, level=level,
                                 source_id=CHAT, message_ids=("m_1",), run_id=run, at=at(minute))


def edge(a: str, b: str, kind: str = "follows", run: str = "r1"):
    return EdgeAdded.model_validate({"id": f"edg_{a}_{b}_{kind}_{run}", "from": a, "to": b,
                                     "relation": kind, "source_id": CHAT, "run_id": run,
                                     "at": at(0)})


def cp(run: str):
    return RunCheckpoint(id=run, source_id=CHAT, started_at=at(0), finished_at=at(0))
