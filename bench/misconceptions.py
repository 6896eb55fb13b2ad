"""What the misconception patterns add to a read of the learner, on a big graph with a long quiz
history: ``--nodes`` nodes (``tests/support/big_graph.py``) and ``--sessions`` sessions of
``--misses`` wrong answers each (every one picking a distractor, linked by quiz events).

    .venv/bin/python bench/misconceptions.py [--nodes 20000] [--sessions 200] [--misses 10]

Prints the best of three, in milliseconds: the learner model alone, the patterns over it (first
read: every session's transcript read once; warm: the answers kept), and one node's patterns
(what ``GET /api/mastery`` adds to its read) — with the number of live patterns found.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.support


def seed_history(services, nodes: int, sessions: int, misses: int, now: datetime) -> None:
    from studyhall.core.contracts.chat import ChatRecord, Message, ToolCallPart
    from studyhall.core.contracts.graph import QuizEvent, RunCheckpoint
    from studyhall.core.contracts.quiz import QuestionResult, QuizOutput

    events = []
    for s in range(sessions):
        chat_id = f"chat_{s:04d}"
        messages = []
        for k in range(misses):
            at = now - timedelta(days=1, minutes=s * misses + k)
            choices = [f"right {k % 3}", f"distractor {k % 3}", "other"]
            output = QuizOutput(correct=0, total=1, answered_at=at.isoformat(), results=(
                QuestionResult(index=0, kind="single", prompt="?", verdict="miss",
                               response=choices[1], chosen=(1,), expected=(choices[0],)),))
            messages.append(Message(id=f"m{k}", role="assistant", created_at=at, agent="teacher",
                                    parts=(ToolCallPart(
                                        tool_call_id=f"call{k}", name="quiz",
                                        state="output-available", output=output.model_dump(
                                            mode="json"),
                                        input={"questions": [{"prompt": "?", "choices": choices,
                                                              "correct": [0]}]}),)))
            events.append(QuizEvent(id=f"quz_{s}_{k}", node_id=f"n{(s * 7 + k % 2) % nodes:05d}",
                                    verdict="miss", source_id=chat_id, tool_call_id=f"call{k}",
                                    question_index=0, run_id="hist", at=at))
        services.chat_store.create(ChatRecord(id=chat_id, created_at=now, updated_at=now,
                                              messages=tuple(messages)))
    services.graph_store.append_quiz_events(events)
    services.graph_store.append_checkpoint(RunCheckpoint(id="hist", source_id="chat_0000",
                                                         started_at=now, finished_at=now))


def best(fn, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return min(times)


def main(nodes: int, sessions: int, misses: int) -> None:
    from dataclasses import replace

    from studyhall.adapters.fakes import FixedClock
    from studyhall.server.app import build_runtime, build_services
    from studyhall.server.config import load_config
    from studyhall.server.runtime.learner.wrong_choices import WrongChoices

    from tests.support.big_graph import seed_big_graph

    now = datetime(2026, 1, 20, tzinfo=UTC)
    with tempfile.TemporaryDirectory() as data:
        services = replace(build_services(load_config(data_dir=Path(data))), clock=FixedClock(now))
        seed_big_graph(services.graph_store, nodes)
        seed_history(services, nodes, sessions, misses, now)
        learner = build_runtime(services).learner
        learner.model()  # the graph folded once, as the running app keeps it
        model = learner.model()
        cold = WrongChoices(chat_store=services.chat_store, graph_store=services.graph_store)
        start = time.perf_counter()
        found = cold.patterns(model)
        first = (time.perf_counter() - start) * 1000
        print(f"{nodes} nodes, {sessions} sessions x {misses} wrong answers: "
              f"{len(found)} live patterns")
        print(f"learner model alone      {best(learner.model):8.1f} ms")
        print(f"patterns, first read     {first:8.1f} ms (every transcript read once)")
        print(f"patterns, warm           {best(lambda: cold.patterns(model)):8.1f} ms")
        node = found[0].node_id if found else model.snapshot.nodes[0].id
        print(f"one node's patterns      {best(lambda: cold.patterns(model, node)):8.1f} ms"
              " (what GET /api/mastery adds)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--nodes", type=int, default=20000)
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--misses", type=int, default=10)
    a = parser.parse_args()
    main(a.nodes, a.sessions, a.misses)
