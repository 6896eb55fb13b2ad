"""Retrieval benchmark: index build time, query latency (p50/p95) and memory over generated
chunks — 10k and 100k by default. No model call; vectors are random unit vectors (the same cost
as MiniLM's 384 dims), text is Zipf-distributed words in sentences.

    .venv/bin/python bench/retrieval.py [--sizes 10000 100000] [--queries 200] [--rerank]

Measures the first stage (BM25 + dense + coverage candidates, fused), which is what scales with
the corpus; ``--rerank`` also times the local late-interaction rerank of the top 12 (MiniLM on
CPU, cost independent of corpus size), one question embedding and the model's load, on the
ONNX Runtime encoder (the app's default) and on torch.
"""

from __future__ import annotations

import os

# One BLAS thread: the app shares the machine, and per-query CPU time stays comparable.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import asyncio
import gc
import random
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from studyhall.adapters.search.index import FileSearchIndex
from studyhall.core.contracts.search import Chunk
from studyhall.core.library.retrieval.hybrid import fuse

DIMS = 384


def _rss_mb() -> float:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _vocab(rng: random.Random, n: int = 30000) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return ["".join(rng.choice(letters) for _ in range(rng.randint(3, 10))) for _ in range(n)]


def _sentence(rng: random.Random, vocab: list[str], cum: list[float]) -> str:
    return " ".join(rng.choices(vocab, cum_weights=cum, k=rng.randint(8, 20))).capitalize() + "."


def _cum(weights: list[float]) -> list[float]:
    out, total = [], 0.0
    for w in weights:
        total += w
        out.append(total)
    return out


def build(n: int, seed: int = 7) -> tuple[FileSearchIndex, list[str], float, float]:
    rng = random.Random(seed)
    vocab = _vocab(rng)
    weights = _cum([1 / (r + 1) ** 1.07 for r in range(len(vocab))])
    np_rng = np.random.default_rng(seed)
    gc.collect()
    rss0 = _rss_mb()
    per_source = 100
    batches = []
    for s in range(0, n, per_source):
        sid = f"src{s // per_source}"
        chunks = []
        for i in range(min(per_source, n - s)):
            sents = tuple(_sentence(rng, vocab, weights) for _ in range(rng.randint(4, 8)))
            chunks.append(Chunk(f"{sid}:{i}", sid, f"{sid}.txt", "text", sid, f"p{i}", " ".join(sents),
                                sentences=sents))
        vecs = np_rng.standard_normal((len(chunks), DIMS)).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        batches.append((sid, chunks, vecs))
    index = FileSearchIndex(None)
    t0 = time.perf_counter()  # index work only: upserts, then the first query's build
    for sid, chunks, vecs in batches:
        index.upsert(sid, sid, chunks, vecs, "bench/random")
    upserted = time.perf_counter() - t0
    index.candidates("warm up", None, limit=10)  # first query builds the BM25 index
    built = time.perf_counter() - t0
    queries = [" ".join(rng.choices(vocab[:3000], k=rng.randint(3, 8))) for _ in range(1000)]
    return index, queries, built, _rss_mb() - rss0 if upserted >= 0 else 0.0


def bench(n: int, n_queries: int) -> dict[str, float]:
    index, queries, built, mem = build(n)
    rng = np.random.default_rng(1)
    times, cpu = [], []
    for q in queries[:n_queries]:
        vec = rng.standard_normal(DIMS).astype(np.float32)
        vec /= np.linalg.norm(vec)
        t, c = time.perf_counter(), time.process_time()
        hits = fuse(index.candidates(q, vec, limit=10))
        times.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
        assert hits
    times.sort()
    cpu.sort()
    # Incremental: re-import one source (100 chunks), then the next query rebuilds the index.
    sid = index.source_ids()[0]
    chunks = index.chunks(sid)
    vecs = rng.standard_normal((len(chunks), DIMS)).astype(np.float32)
    t = time.perf_counter()
    index.upsert(sid, "changed", chunks, vecs / np.linalg.norm(vecs, axis=1, keepdims=True), "bench/random")
    index.candidates("after the change", None, limit=10)
    reindex = time.perf_counter() - t
    return {"chunks": n, "build_s": built, "reindex_s": reindex, "rss_mb": mem, "p50_ms": statistics.median(times),
            "p95_ms": times[int(0.95 * (len(times) - 1))], "cpu_p50_ms": statistics.median(cpu),
            "cpu_p95_ms": cpu[int(0.95 * (len(cpu) - 1))]}


def bench_rerank(backend: str, n_queries: int = 20) -> dict[str, float]:
    """The late-interaction rerank on one backend: the model's load (the first question's
    wait, after the one-time ONNX export), the question's embedding, and the rerank of 12."""
    import tempfile

    from studyhall.adapters.embed.onnx_export import exported_model
    from studyhall.adapters.embed.onnx_minilm import OnnxMiniLMEmbedder
    from studyhall.adapters.search.late_interaction import MiniLMEncoder, MiniLMLateScorer

    enc: Any
    if backend == "onnx":
        models = Path(tempfile.mkdtemp(prefix="studyhall-bench-models-"))
        exported_model(models)  # once per data folder, not part of a question's wait
        enc = OnnxMiniLMEmbedder(models)
    else:
        enc = MiniLMEncoder()
    scorer = MiniLMLateScorer(enc)
    rng = random.Random(3)
    vocab = _vocab(rng, 2000)
    weights = _cum([1.0] * len(vocab))
    chunks = [Chunk(f"c:{i}", "c", "c.txt", "text", "c", "", " ".join(_sentence(rng, vocab, weights) for _ in range(6)))
              for i in range(12 * n_queries)]
    t = time.perf_counter()
    enc.tokens_sync(["load the model"])
    load = time.perf_counter() - t
    embed, cold, warm = [], [], []
    for k in range(n_queries):
        q = _sentence(rng, vocab, weights)
        t = time.perf_counter()
        asyncio.run(enc.embed([q]))
        embed.append((time.perf_counter() - t) * 1000)
        batch = chunks[12 * k: 12 * (k + 1)]
        t = time.perf_counter()
        scorer.score_sync(q, batch)
        cold.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        scorer.score_sync(q, batch)
        warm.append((time.perf_counter() - t) * 1000)
    return {"load_s": load, "embed_p50_ms": statistics.median(embed),
            "rerank12_cold_p50_ms": statistics.median(cold),
            "rerank12_cached_p50_ms": statistics.median(warm), "rss_mb": _rss_mb()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rerank", action="store_true")
    args = parser.parse_args()
    print(f"{'chunks':>8} {'build s':>8} {'+RSS MB':>8} {'p50 ms':>7} {'p95 ms':>7} {'cpu p50':>8} {'cpu p95':>8} {'re-import s':>11}")
    for n in args.sizes:
        r = bench(n, args.queries)
        print(f"{r['chunks']:>8} {r['build_s']:>8.1f} {r['rss_mb']:>8.0f} {r['p50_ms']:>7.2f} {r['p95_ms']:>7.2f}"
              f" {r['cpu_p50_ms']:>8.2f} {r['cpu_p95_ms']:>8.2f} {r['reindex_s']:>11.1f}", flush=True)
        gc.collect()
    if args.rerank:
        for backend in ("onnx", "torch"):  # onnx first: torch's import would count in its RSS
            r = bench_rerank(backend)
            print(f"{backend:>5}: model load {r['load_s']:.1f} s; question embedding p50 "
                  f"{r['embed_p50_ms']:.1f} ms; late-interaction rerank of 12: "
                  f"{r['rerank12_cold_p50_ms']:.0f} ms uncached, "
                  f"{r['rerank12_cached_p50_ms']:.1f} ms cached; RSS {r['rss_mb']:.0f} MB",
                  flush=True)


if __name__ == "__main__":
    main()
