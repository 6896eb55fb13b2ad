"""A learner's history for Today, written through the ports: a note about graphs imported
(topics basics -> paths -> trees, lists, heaps), basics learned and graded a month ago (due
now), a misconception seen in a session, and an open session at step 2 of its plan (its
quiz waiting)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from studyhall.core.contracts.chat import ChatRecord, Message, TextPart, ToolCallPart
from studyhall.core.contracts.graph import (
    EdgeAdded,
    Evidence,
    PropositionCreated,
    QuizEvent,
    RunCheckpoint,
    UnderstandingObserved,
)
from studyhall.core.contracts.learner import ReviewGraded
from studyhall.core.contracts.quiz import QuestionResult, QuizOutput
from studyhall.core.contracts.sources import Source
from studyhall.server.services import Services

NOTE = "src_graphs"
CHAT = "chat_graph_search"
TOPICS = {"basics": "Graph basics: vertices and edges",
          "paths": "Shortest paths with Dijkstra's algorithm",
          "trees": "Minimum spanning trees",
          "lists": "Adjacency lists",
          "mixup": "Conditional probability P(A|B)"}
PROMPT = "Which vertex does breadth-first search visit first?"
CHOICES = ["The start vertex", "The vertex farthest from the start"]
PLAN = "flowchart TD\nA[What a graph is] --> B[Breadth-first search] --> C[Dijkstra]"


def note_text() -> str:
    """The note's Markdown, one heading per topic (a vault the reader can open)."""
    return "# Graphs\n\n" + "".join(f"## {text}\n\n{text}.\n\n" for text in TOPICS.values())


def seed_notes(services: Services, now: datetime, root: str = "/vault") -> None:
    """The imported note (``graphs.md`` under ``root``) and its topics (nothing learned yet)."""
    month = now - timedelta(days=30)
    services.source_store.save(Source(id=NOTE, path="graphs.md", root=root, kind="note",
                                      status="imported", imported_at=month))
    graph = services.graph_store
    graph.append_propositions([
        PropositionCreated(id=f"prp_{node}", node_id=node, text=text, source_id=NOTE,
                           evidence=(Evidence(source_id=NOTE, message_id="graphs.md",
                                              quote=text),),
                           run_id="r_import", at=month)
        for node, text in TOPICS.items()])
    graph.append_edges([_edge("basics", "paths", "follows", month),
                        _edge("paths", "trees", "follows", month),
                        _edge("basics", "lists", "supports", month)])
    graph.append_checkpoint(RunCheckpoint(id="r_import", source_id=NOTE, started_at=month,
                                          finished_at=month))


def seed_learning(services: Services, now: datetime) -> None:
    """basics learned (three right answers, graded Good a month ago), mixup misunderstood,
    and the open session."""
    month = now - timedelta(days=30)
    graph = services.graph_store
    graph.append_quiz_events([
        QuizEvent(id=f"quz_basics_{n}", node_id="basics", verdict="correct", source_id=CHAT,
                  tool_call_id=f"call_q{n}", question_index=0, run_id="r_chat",
                  at=month + timedelta(minutes=n)) for n in range(3)])
    graph.append_observations([UnderstandingObserved(
        id="obs_mixup", node_id="mixup", level="misconception", source_id=CHAT,
        message_ids=("m_1",), run_id="r_chat", at=month + timedelta(minutes=5))])
    graph.append_checkpoint(RunCheckpoint(id="r_chat", source_id=CHAT, started_at=month,
                                          finished_at=month))
    services.learner_store.append_grades([ReviewGraded(
        id="rev_basics", node_id="basics", grade="good", at=month + timedelta(minutes=10))])
    services.chat_store.create(open_session(now - timedelta(hours=2)))


def seed_all_done(services: Services, now: datetime) -> None:
    """One note with one topic, learned and graded Easy an hour ago: nothing due, nothing open,
    nothing new."""
    hour = now - timedelta(hours=1)
    services.source_store.save(Source(id=NOTE, path="graphs.md", root="/vault", kind="note",
                                      status="imported", imported_at=hour))
    services.graph_store.append_propositions([PropositionCreated(
        id="prp_basics", node_id="basics", text=TOPICS["basics"], source_id=NOTE,
        evidence=(Evidence(source_id=NOTE, message_id="graphs.md", quote=TOPICS["basics"]),),
        run_id="r_import", at=hour)])
    services.graph_store.append_quiz_events([
        QuizEvent(id=f"quz_basics_{n}", node_id="basics", verdict="correct", source_id=NOTE,
                  tool_call_id=f"call_q{n}", question_index=0, run_id="r_import",
                  at=hour + timedelta(minutes=n)) for n in range(3)])
    services.graph_store.append_checkpoint(RunCheckpoint(id="r_import", source_id=NOTE,
                                                         started_at=hour, finished_at=hour))
    services.learner_store.append_grades([ReviewGraded(
        id="rev_basics", node_id="basics", grade="easy", at=hour + timedelta(minutes=10))])


def open_session(at: datetime, answered: tuple[str, ...] = ("A",),
                 waiting: str | None = "B", planned: bool = True) -> ChatRecord:
    """A session in its teaching phase, its plan approved, a quiz answered on each step of
    ``answered`` and one waiting on ``waiting``; not ``planned``: still in its warm-up."""
    def call(n: int, name: str, args: dict[str, Any], output: Any) -> Message:
        part = ToolCallPart(tool_call_id=f"call_{n}", name=name, input=args,
                            state="input-available" if output is None else "output-available",
                            output=output)
        return Message(id=f"m_{n}", role="assistant", parts=(part,), created_at=at,
                       agent="teacher")

    def quiz(n: int, node: str, output: Any) -> Message:
        return call(n, "quiz", {"questions": [{"prompt": PROMPT, "choices": CHOICES,
                                               "correct": [0]}], "plan_node": node}, output)

    answered_well = QuizOutput(correct=1, total=1, results=(QuestionResult(
        index=0, kind="single", prompt=PROMPT, verdict="correct", response=CHOICES[0],
        chosen=(0,), expected=(CHOICES[0],)),)).model_dump(mode="json")

    messages = [Message(id="m_0", role="user", parts=(TextPart(text="Teach me graph search"),),
                        created_at=at)]
    if planned:
        messages += [
            call(1, "probe_done", {"floor": "f", "ceiling": "c", "goal": "g", "summary": "s"},
                 {"ok": True}),
            call(2, "plan_init", {"title": "Graph search", "mermaid": PLAN}, {"approve": True}),
            *(quiz(3 + k, node, {**answered_well, "plan_node": node})
              for k, node in enumerate(answered)),
            *([quiz(9, waiting, None)] if waiting else []),  # waiting for the learner
        ]
    return ChatRecord(id=CHAT, topic="graph search", title="Graph search", created_at=at,
                      updated_at=at, messages=tuple(messages))


def _edge(a: str, b: str, kind: str, at: datetime) -> EdgeAdded:
    return EdgeAdded.model_validate({"id": f"edg_{a}_{b}", "from": a, "to": b,
                                     "relation": kind, "source_id": NOTE,
                                     "run_id": "r_import", "at": at})
