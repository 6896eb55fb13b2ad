"""Graph read/merge benchmark: a generated graph on disk, read as the app reads it.

    .venv/bin/python bench/graph.py [--sizes 10000 100000] [--keep DIR] [--before REV]

Each node gets ≈5 events (1 creation, 2 quiz events, 1 observation, 1 identity link every
other node) and ≈1 edge, written as JSONL ledgers. Every measurement runs in its own process
(so caches, the heap and peak RSS are its own) through ``GraphReader`` over
``JsonlGraphStore`` — the path ``GET /api/graph`` takes:

- cold, no cache:    a fresh process folds every ledger line (what the first start pays);
- cache save:        writing graph/.fold-cache after that fold (a background thread in the app);
- cold, with cache:  a fresh process restores the fold from the cache, then reads the tails;
- warm:              the next read with nothing new;
- after a new run:   the read after one more extraction run was merged (10 findings, 9 edges);
- JSON body:         the ``GET /api/graph`` body (``GraphBody``) of everything, every trail
                     decoded and every node encoded; then the next body after the new run
                     (only changed nodes encoded again);
- merge:             merge planning (pure) and committing merges to the file store (fsyncs).

With ``--before REV`` the cached read and the JSON bodies are also measured with the package as
it was at that git revision (``bench/before.py``), on a copy of the same graph.

Wall and CPU time are printed (CPU time is what a busy shared machine distorts least), and the
peak RSS of each process. Targets (issue 6): 10k warm < 50 ms, 100k cold < 500 ms, RSS < 800 MB.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from before import before_tree, env_for

T0 = datetime(2025, 1, 1, tzinfo=UTC)
RUN_SIZE = 50  # nodes per generated run
LEDGER_FILES = ("propositions", "identity", "edges", "quiz_events", "observations",
                "checkpoints")


# --- the generated graph --------------------------------------------------------------------

def generate(n: int, root: Path) -> int:
    """Write the ledgers of an ``n``-node graph under ``root``; return the number of records."""
    from studyhall.core.contracts.graph import (
        EdgeAdded,
        Evidence,
        IdentityLinked,
        PropositionCreated,
        QuizEvent,
        RunCheckpoint,
        UnderstandingObserved,
    )

    root.mkdir(parents=True, exist_ok=True)
    files = {name: open(root / f"{name}.jsonl", "wb") for name in LEDGER_FILES}  # noqa: SIM115
    verdicts = ("correct", "miss", "dont-know")
    levels = ("solid", "partial", "confused", "misconception")
    count = 0

    def put(name: str, record: Any) -> None:
        nonlocal count
        files[name].write(record.model_dump_json(by_alias=True).encode() + b"\n")
        count += 1

    for i in range(n):
        run = f"run_{i // RUN_SIZE}"
        at = T0 + timedelta(minutes=i)
        node = f"n_{i}"
        ev = (Evidence(source_id="chat", message_id=f"m_{i}", quote=f"quote number {i}"),)
        put("propositions", PropositionCreated(
            id=f"prp_{i}", node_id=node, text=f"Proposition {i} about topic {i % 97}",
            evidence=ev, source_id="chat", run_id=run, at=at))
        for q in range(2):
            put("quiz_events", QuizEvent(
                id=f"quz_{i}_{q}", node_id=node, verdict=verdicts[(i + q) % 3], source_id="chat",
                tool_call_id=f"call_{i}", question_index=q, run_id=run,
                at=at + timedelta(seconds=q)))
        put("observations", UnderstandingObserved(
            id=f"obs_{i}", node_id=node, level=levels[i % 4], source_id="chat",
            message_ids=(f"m_{i}",), run_id=run, at=at))
        if i % 2:
            put("identity", IdentityLinked(
                id=f"idl_{i}", node_id=f"n_{i - 1}", text="again", evidence=ev,
                source_id="chat2", run_id=run, at=at))
        if i:
            put("edges", EdgeAdded.model_validate({
                "id": f"edg_{i}", "from": f"n_{(i * 7) % i}", "to": node,
                "relation": "follows" if i % 3 else "supports", "source_id": "chat",
                "run_id": run, "at": at}))
        if i % RUN_SIZE == RUN_SIZE - 1 or i == n - 1:
            put("checkpoints", RunCheckpoint(id=run, source_id="chat", started_at=at,
                                             finished_at=at, propositions=RUN_SIZE))
    for f in files.values():
        f.close()
    return count


def sample_merge(run: int) -> tuple[Any, Any, Any]:
    """One extraction run's worth of findings: 10 propositions, 9 edges, all kept."""
    from studyhall.core.library.extraction.batching import Batch
    from studyhall.core.library.extraction.coverage import make_view
    from studyhall.core.library.extraction.findings import AuditorOutput, ExtractorOutput

    views = tuple(make_view(f"chat_bench_{run}", f"m_{i}", "learner",
                            [f"The learner says fact {i} holds because of reason {i}."],
                            T0 + timedelta(minutes=i)) for i in range(10))
    findings = ExtractorOutput.model_validate({
        "propositions": [{"key": f"p{i}", "text": f"Fact {i} of run {run} holds.",
                          "evidence": [{"message_id": f"m_{i}", "quote": f"fact {i} holds"}],
                          "understanding": "solid"} for i in range(10)],
        "edges": [{"from": f"p{i}", "to": f"p{i + 1}", "kind": "follows"} for i in range(9)]})
    audit = AuditorOutput.model_validate(
        {"verdicts": [{"key": f"p{i}", "keep": True, "reason": "ok"} for i in range(10)]})
    return Batch(f"chat_bench_{run}", views), findings, audit


# --- measurements, each in a child process --------------------------------------------------

def timed(fn: Callable[[], Any]) -> tuple[Any, dict[str, float]]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu}


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child_cold(root: Path, save: bool) -> dict[str, Any]:
    from studyhall.adapters.store import JsonlGraphStore
    from studyhall.server.runtime.library.graph_reader import GraphReader

    reader = GraphReader(JsonlGraphStore(root), save_after=1 if save else 10**15)
    snap, cold = timed(reader.snapshot)
    out: dict[str, Any] = {"cold": cold, "nodes": len(snap.nodes), "edges": len(snap.edges)}
    if save:
        _, out["save"] = timed(reader.settle)  # the save started at the end of the fold
    out["rss_mb"] = peak_rss_mb()
    return out


def child_cached(root: Path) -> dict[str, Any]:
    from studyhall.adapters.store import JsonlGraphStore
    from studyhall.core.library.extraction.merger import commit_merge, plan_merge
    from studyhall.server.runtime.library.graph_reader import GraphReader, gc_paused

    try:
        from studyhall.server.http.graph_body import GraphBody
    except ImportError:  # an older revision (--before): the body was encoded in the core
        from studyhall.core.library.graph.body import GraphBody  # type: ignore[no-redef]

    store = JsonlGraphStore(root)
    reader = GraphReader(store, save_after=10**15)
    snap, cold = timed(reader.snapshot)
    rss_cold = peak_rss_mb()
    _, warm = timed(reader.snapshot)
    renderer = GraphBody()
    with gc_paused():  # as the route renders
        _, body = timed(lambda: renderer.render(snap))
    batch, findings, audit = sample_merge(0)
    commit_merge(plan_merge(batch, findings, audit, snap.known(), run_id="run_bench_new",
                            started_at=T0, at=T0 + timedelta(days=3650)), store)
    grown, incremental = timed(reader.snapshot)
    with gc_paused():
        _, body_next = timed(lambda: renderer.render(grown))
    return {"cold": cold, "warm": warm, "incremental": incremental, "body": body,
            "body_next": body_next,
            "nodes": len(snap.nodes), "grown": len(grown.nodes), "rss_cold_mb": rss_cold,
            "rss_mb": peak_rss_mb()}


def child_merge(root: Path, batches: int = 200) -> dict[str, Any]:
    from studyhall.adapters.store import JsonlGraphStore
    from studyhall.core.library.extraction.merger import KnownGraph, commit_merge, plan_merge

    samples = [sample_merge(b) for b in range(batches)]
    plans, planning = timed(lambda: [
        plan_merge(batch, findings, audit, KnownGraph(), run_id=f"r{b}", started_at=T0, at=T0)
        for b, (batch, findings, audit) in enumerate(samples)])
    store = JsonlGraphStore(root)
    _, committing = timed(lambda: [commit_merge(plan, store) for plan in plans[:50]])
    return {"planned": batches, "planning": planning, "committed": 50, "committing": committing}


def run_child(mode: str, root: Path, tree: Path | None = None) -> dict[str, Any]:
    out = subprocess.run([sys.executable, __file__, "--child", mode, "--dir", str(root)],
                         check=True, capture_output=True, text=True, env=env_for(tree))
    return json.loads(out.stdout.strip().splitlines()[-1])


# --- report ---------------------------------------------------------------------------------

def ms(t: dict[str, float]) -> str:
    return f"{t['wall'] * 1000:9.1f} ms (cpu {t['cpu'] * 1000:8.1f} ms)"


def bench_size(n: int, base: Path, before: tuple[str, Path] | None = None) -> None:
    root = base / f"g{n}" / "graph"
    (records, made) = timed(lambda: generate(n, root))
    size_mb = sum(p.stat().st_size for p in root.glob("*.jsonl")) / 1e6
    print(f"{n:>7} nodes, {records} records, {size_mb:.0f} MB of JSONL "
          f"(written in {made['wall']:.1f} s)")
    if before is not None:
        # On a copy with a fold cache of its own (a cache names its files by inode, and the
        # cached run merges one more run into its graph).
        copy = root.with_name("graph-before")
        shutil.copytree(root, copy)
        run_child("save", copy, before[1])
        old = run_child("cached", copy, before[1])
    cold = run_child("cold", root)
    print(f"    cold, no cache      {ms(cold['cold'])}   peak RSS {cold['rss_mb']:6.0f} MB")
    saved = run_child("save", root)
    cache_mb = (root / ".fold-cache").stat().st_size / 1e6
    print(f"    cache save          {ms(saved['save'])}   peak RSS {saved['rss_mb']:6.0f} MB"
          f"   ({cache_mb:.0f} MB file, written in the background)")
    hot = run_child("cached", root)
    print(f"    cold, with cache    {ms(hot['cold'])}   peak RSS {hot['rss_cold_mb']:6.0f} MB")
    print(f"    warm (nothing new)  {ms(hot['warm'])}")
    print(f"    after a new run     {ms(hot['incremental'])}   ({hot['grown'] - hot['nodes']} "
          "new nodes)")
    print(f"    JSON body (all)     {ms(hot['body'])}   peak RSS {hot['rss_mb']:6.0f} MB")
    print(f"    JSON body, next run {ms(hot['body_next'])}")
    if before is not None:
        print(f"  at {before[0]}:")
        print(f"    cold, with cache    {ms(old['cold'])}   peak RSS {old['rss_cold_mb']:6.0f} MB")
        print(f"    JSON body (all)     {ms(old['body'])}   peak RSS {old['rss_mb']:6.0f} MB")
        print(f"    JSON body, next run {ms(old['body_next'])}")
    assert cold["nodes"] == hot["nodes"] == n, (cold, hot)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--keep", type=Path, help="generate the graphs here and keep them")
    parser.add_argument("--before", metavar="REV",
                        help="also time the cached read and the bodies at this git revision")
    parser.add_argument("--child", choices=["cold", "save", "cached", "merge"],
                        help=argparse.SUPPRESS)
    parser.add_argument("--dir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        work = {"cold": lambda: child_cold(args.dir, save=False),
                "save": lambda: child_cold(args.dir, save=True),
                "cached": lambda: child_cached(args.dir),
                "merge": lambda: child_merge(args.dir)}[args.child]
        print(json.dumps(work()))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        base = args.keep or Path(tmp)
        before = (args.before, before_tree(args.before)) if args.before else None
        for n in args.sizes:
            bench_size(n, base, before)
        merge = run_child("merge", base / "merge" / "graph")
        planning, committing = merge["planning"], merge["committing"]
        print(f"merge planning   {merge['planned'] / planning['wall']:8.0f} runs/s "
              f"({merge['planned'] * 10 / planning['wall']:8.0f} findings/s; 10 findings + "
              "9 edges each)")
        print(f"merge commit     {merge['committed'] / committing['wall']:8.0f} runs/s "
              "(7 fsynced appends each, to the JSONL file store)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
