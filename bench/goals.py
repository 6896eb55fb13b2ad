"""Goals' progress on a big seeded graph: what ``GET /api/goals`` and Today's goal step pay.

    .venv/bin/python bench/goals.py [--nodes 20000] [--goals 10] [--steps 20]

The graph is ``tests/support/big_graph.py``'s (every node with some understanding evidence);
each goal has a chain of steps whose labels name nodes of the graph. Timed: the label match
alone (``label_nodes``, one pass over the nodes' words for every step of every goal), and the
whole ``Learner.goals()`` read over a warm graph read (the learner model, each goal's sessions
and quiz events, the views): its first read (the label match runs) and the next ones (the
match kept while the graph read is the same), and ``Learner.today()`` — wall milliseconds, the
best of three. The big graph's texts all share words, the worst case for the match.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.support


def best_ms(fn, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return min(times)


def main(nodes: int, goals: int, steps: int) -> None:
    from studyhall.core.library.learner.goals import label_nodes
    from studyhall.server.app import build_runtime, build_services
    from studyhall.server.config import load_config

    from tests.support.big_graph import seed_big_graph
    from tests.support.embedder import HashEmbedder

    with tempfile.TemporaryDirectory() as data:
        services = replace(build_services(load_config(data_dir=Path(data), port=1)),
                           embedder=HashEmbedder())
        seed_big_graph(services.graph_store, nodes)
        runtime = build_runtime(services)
        learner = runtime.learner
        snapshot = learner.model().snapshot  # warm the graph read, as the app keeps it
        texts = [n.text for n in snapshot.nodes]
        for g in range(goals):
            picked = [texts[(g * steps + k) * 7 % len(texts)].split(":")[0] for k in range(steps)]
            lines = [f'S{k}["{label}"]' for k, label in enumerate(picked)]
            chain = [f"S{k} --> S{k + 1}" for k in range(steps - 1)]
            learner.create_goal(f"Goal {g}", None,
                                {"mermaid": "\n".join(["flowchart TD", *lines, *chain])})
        labels = {f"{g}:{k}": texts[(g * steps + k) * 7 % len(texts)].split(":")[0]
                  for g in range(goals) for k in range(steps)}
        pairs = [(n.id, n.text) for n in snapshot.nodes]
        match = best_ms(lambda: label_nodes(labels, pairs))
        cold = best_ms(learner.goals, runs=1)  # the first read after the graph changed
        whole = best_ms(learner.goals)
        today = best_ms(learner.today)
        print(f"nodes {nodes}, goals {goals} x {steps} steps: label match {match:.0f} ms, "
              f"GET /api/goals first {cold:.0f} ms then {whole:.0f} ms, "
              f"GET /api/today {today:.0f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--goals", type=int, default=10)
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    main(args.nodes, args.goals, args.steps)
