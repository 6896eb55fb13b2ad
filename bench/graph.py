"""Graph read/merge benchmark: derive snapshots of generated graphs, cold and warm; merge rate.

    .venv/bin/python bench/graph.py [--sizes 10000 100000] [--files]

Each node gets ≈5 events (1 creation, 2 quiz events, 1 observation, 1 identity link every
other node) and ≈1 edge. "cold" folds every ledger line into a fresh ``GraphFold``; "warm" is
the next read after a small run (20 new records) was appended — what ``GET /api/graph`` pays
in a running app. ``--files`` also measures reading the ledgers back from JSONL files.
Targets (issue 6): 10k warm < 50 ms, 100k cold < 500 ms, RSS < 800 MB.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Self

from studyhall.core.contracts.graph import (
    EdgeAdded,
    Evidence,
    IdentityLinked,
    PropositionCreated,
    QuizEvent,
    RunCheckpoint,
    UnderstandingObserved,
)
from studyhall.core.library.batching import Batch
from studyhall.core.library.coverage import make_view
from studyhall.core.library.findings import AuditorOutput, ExtractorOutput
from studyhall.core.library.merger import KnownGraph, plan_merge
from studyhall.core.library.snapshot import GraphFold, Ledgers

T0 = datetime(2025, 1, 1, tzinfo=UTC)
RUN_SIZE = 50  # nodes per generated run


def generate(n: int, tag: str = "", offset: int = 0) -> Ledgers:
    props, links, edges, quiz, obs, cps = [], [], [], [], [], []
    verdicts = ("correct", "miss", "dont-know")
    levels = ("solid", "partial", "confused", "misconception")
    for i in range(n):
        run = f"run{tag}_{i // RUN_SIZE}"
        at = T0 + timedelta(minutes=offset + i)
        node = f"n{tag}_{i}"
        ev = (Evidence.model_construct(source_id="chat", message_id=f"m_{i}",
                                       quote=f"quote number {i}"),)
        props.append(PropositionCreated.model_construct(
            kind="proposition", id=f"prp{tag}_{i}", node_id=node,
            text=f"Proposition {i} about topic {i % 97}", evidence=ev, source_id="chat",
            run_id=run, at=at))
        for q in range(2):
            quiz.append(QuizEvent.model_construct(
                kind="quiz", id=f"quz{tag}_{i}_{q}", node_id=node, verdict=verdicts[(i + q) % 3],
                source_id="chat", tool_call_id=f"call_{i}", question_index=q, run_id=run,
                at=at + timedelta(seconds=q)))
        obs.append(UnderstandingObserved.model_construct(
            kind="understanding", id=f"obs{tag}_{i}", node_id=node, level=levels[i % 4],
            source_id="chat", message_ids=(f"m_{i}",), run_id=run, at=at))
        if i % 2:
            links.append(IdentityLinked.model_construct(
                kind="identity", id=f"idl{tag}_{i}", node_id=f"n{tag}_{i - 1}", text="again",
                evidence=ev, source_id="chat2", run_id=run, at=at))
        if i:
            edges.append(EdgeAdded.model_construct(
                kind="edge", id=f"edg{tag}_{i}", source=f"n{tag}_{(i * 7) % i}", target=node,
                relation="follows" if i % 3 else "supports", source_id="chat", run_id=run,
                at=at))
        if i % RUN_SIZE == RUN_SIZE - 1 or i == n - 1:
            cps.append(RunCheckpoint.model_construct(
                kind="checkpoint", id=run, source_id="chat", started_at=at, finished_at=at,
                propositions=RUN_SIZE, edges=RUN_SIZE, dropped=0, input_tokens=None,
                output_tokens=None, cost_usd=None))
    return Ledgers(props, links, edges, quiz, obs, cps)


def grow(base: Ledgers, extra: Ledgers) -> Ledgers:
    return Ledgers(*(tuple(getattr(base, f)) + tuple(getattr(extra, f))
                     for f in ("propositions", "identities", "edges", "quiz_events",
                               "observations", "checkpoints")))


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


class Timer:
    """Wall and CPU time of a block (CPU time is what a busy shared machine distorts least)."""

    def __enter__(self) -> Self:
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall = time.perf_counter() - self.wall
        self.cpu = time.process_time() - self.cpu

    def __str__(self) -> str:
        return f"{ms(self.wall)} (cpu {ms(self.cpu).strip()})"


def bench_snapshot(n: int) -> None:
    ledgers = generate(n)
    records = sum(len(getattr(ledgers, f)) for f in ledgers.__dataclass_fields__)
    with Timer() as cold:
        fold = GraphFold()
        fold.update(ledgers)
        snap = fold.snapshot()
    assert len(snap.nodes) == n
    grown = grow(ledgers, generate(4, tag="x", offset=n))  # a new run: newer than the rest
    with Timer() as warm:
        fold.update(grown)
        warm_snap = fold.snapshot()
    assert len(warm_snap.nodes) == n + 4
    with Timer() as unchanged:
        fold.update(grown)
        fold.snapshot()
    print(f"{n:>7} nodes, {records:>7} records:\n    cold {cold}\n    warm (+small run) {warm}"
          f"\n    unchanged {unchanged}")


def bench_files(n: int) -> None:
    from studyhall.adapters.store import JsonlGraphStore
    from studyhall.core.library.snapshot import read_ledgers

    ledgers = generate(n)
    with tempfile.TemporaryDirectory() as tmp:
        store = JsonlGraphStore(Path(tmp))
        store.append_propositions(ledgers.propositions)
        store.append_identity_links(ledgers.identities)
        store.append_edges(ledgers.edges)
        store.append_quiz_events(ledgers.quiz_events)
        store.append_observations(ledgers.observations)
        for cp in ledgers.checkpoints:
            store.append_checkpoint(cp)
        started = time.perf_counter()
        read = read_ledgers(JsonlGraphStore(Path(tmp)))
        first = time.perf_counter() - started
        read_ledgers(store)  # the appending store folds its own lines once
        started = time.perf_counter()
        read_ledgers(store)
        again = time.perf_counter() - started
        assert len(read.propositions) == n
    print(f"{n:>7} nodes from JSONL files: first read {ms(first)}   re-read {ms(again)}")


def bench_merge(batches: int = 200) -> None:
    views = tuple(make_view("chat", f"m_{i}", "learner",
                            [f"The learner says fact {i} holds because of reason {i}."],
                            T0 + timedelta(minutes=i)) for i in range(10))
    batch = Batch("chat", views)
    findings = ExtractorOutput.model_validate({
        "propositions": [{"key": f"p{i}", "text": f"Fact {i} holds.",
                          "evidence": [{"message_id": f"m_{i}", "quote": f"fact {i} holds"}],
                          "understanding": "solid"} for i in range(10)],
        "edges": [{"from": f"p{i}", "to": f"p{i + 1}", "kind": "follows"} for i in range(9)]})
    audit = AuditorOutput.model_validate(
        {"verdicts": [{"key": f"p{i}", "keep": True, "reason": "ok"} for i in range(10)]})
    started = time.perf_counter()
    for b in range(batches):
        plan_merge(batch, findings, audit, KnownGraph(), run_id=f"r{b}", started_at=T0, at=T0)
    took = time.perf_counter() - started
    print(f"merge planning: {batches / took:8.0f} batches/s ({batches * 10 / took:8.0f} "
          "findings/s, 10 findings + 9 edges each)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--files", action="store_true", help="also time JSONL reads")
    args = parser.parse_args()
    for n in args.sizes:
        bench_snapshot(n)
        if args.files:
            bench_files(n)
    bench_merge()
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {rss_mb:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
