"""The tutor's learner tools and the hard-quiz gate on a big seeded graph, as a turn runs them.

    .venv/bin/python bench/learner_tools.py [--nodes 20000]

The graph is ``tests/support/big_graph.py``'s (every node with some understanding evidence, so
most are review cards) plus ``follows`` chains. Each tool call is checked and run the way the
agent loop does, with a fresh learner-model read (the tool answers' short-lived model read dropped
first): the best of three, wall and CPU milliseconds. The graph read itself is warm (the app
keeps it); the day plan (FSRS replays of every card) and the node search are what a call pays.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.support


async def main(nodes: int) -> None:
    from studyhall.core.agents.learner_tools import learner_tools
    from studyhall.core.agents.quiz_gate import gated
    from studyhall.core.agents.tools import ToolContext, quiz_tool
    from studyhall.core.contracts.graph import EdgeAdded
    from studyhall.server.app import build_runtime, build_services
    from studyhall.server.config import load_config
    from studyhall.server.runtime.classroom.quiz_gating import QuizGating
    from studyhall.server.runtime.learner.ledgers import LearnerLedgers
    from studyhall.server.runtime.learner.tool_answers import LearnerToolAnswers
    from studyhall.server.runtime.library.graph_reader import GraphReader
    from studyhall.server.runtime.library.graph_upkeep import GraphUpkeep
    from studyhall.server.runtime.library.node_finder import NodeFinder

    from tests.support.big_graph import seed_big_graph
    from tests.support.embedder import HashEmbedder

    services = replace(build_services(load_config(port=48123)), embedder=HashEmbedder())
    seed_big_graph(services.graph_store, nodes)
    at = datetime(2026, 1, 1, tzinfo=UTC)
    services.graph_store.append_edges([EdgeAdded.model_validate({
        "id": f"e{i}", "from": f"n{i:05d}", "to": f"n{i + 40:05d}", "relation": "follows",
        "source_id": "notes", "run_id": "seed", "at": at}) for i in range(0, nodes - 40, 7)])
    runtime = build_runtime(services)
    started = time.perf_counter()
    runtime.library.graph()
    print(f"{nodes} nodes; cold graph read {time.perf_counter() - started:.2f} s")
    graph = GraphReader(services.graph_store)
    finder = NodeFinder(GraphUpkeep(
        graph_store=services.graph_store, source_store=services.source_store, reader=graph, embedder=services.embedder,
        chat_model=None, prompt=str, supervisor=runtime.supervisor))
    # The Learner's tool answers, built here to drop their short-lived model read per call.
    ledgers = LearnerLedgers(graph=graph, learner_store=services.learner_store,
                             settings_store=services.settings_store, clock=services.clock,
                             ids=services.ids)
    answers = LearnerToolAnswers(ledgers=ledgers, finder=finder, chat_store=services.chat_store,
                                 learner_store=services.learner_store, material=runtime.ask)
    tools = {t.name: t for t in learner_tools(answers)}
    quiz = gated(quiz_tool(tagged=False), QuizGating(answers.model, finder))
    ctx = ToolContext(chat_id=runtime.classroom.create_chat("topic 3").id, messages=())
    hard = {"node_id": "n00047", "questions": [
        {"prompt": "?", "choices": ["a", "b"], "correct": [0], "difficulty": "hard"}]}
    calls: list[tuple[str, Any]] = [
        ("learning_strengths", {}),
        ("concept_confidence", {"concept": "n01234"}),
        ("concept_confidence", {"concept": "Proposition 1234 about topic 34"}),
        ("explain_score", {"node_id": "n00047"}),
        ("due_reviews", {}),
    ]
    for name, args in [*calls, ("hard quiz (gate)", hard)]:
        wall, cpu = [], []
        for _ in range(3):
            answers._forget()  # a fresh model read, as the first call of a step pays
            t0, c0 = time.perf_counter(), time.process_time()
            if name in tools:
                assert await tools[name].check(args, ctx) == []
                await tools[name].run(args, ctx)  # type: ignore[misc]
            else:
                assert await quiz.check(args, ctx)  # refused: its prerequisite is not tried
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        shown = f"{name} {args}" if name in tools else name
        print(f"{shown[:60]:60} {min(wall) * 1000:7.0f} ms wall {min(cpu) * 1000:7.0f} ms CPU")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=20000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        os.environ["STUDYHALL_DATA_DIR"] = data
        os.environ["STUDYHALL_TESTING"] = "1"
        asyncio.run(main(options.nodes))
