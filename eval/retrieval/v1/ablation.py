"""Ablation of the retrieval pipeline on this eval set (no model call):

    .venv/bin/python eval/retrieval/v1/ablation.py

Imports material/ into an in-memory index with the bundled MiniLM, then ranks every question
with: BM25 alone, dense alone, RRF (k=60) of the two, z-score fusion of the two, z-score fusion
with term coverage (the first stage), and the first stage + late-interaction rerank (the
shipped pipeline). Prints Recall@1 / top-3 / MRR over the answerable questions per set.
"""

from __future__ import annotations

import asyncio
import json
import sys
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from studyhall.adapters.search.index import FileSearchIndex
from studyhall.adapters.search.late_interaction import MiniLMEncoder, MiniLMLateScorer
from studyhall.adapters.sources.material import FileMaterialReader
from studyhall.core.library.retrieval.hybrid import RERANK_DEPTH, Hit, fuse, rerank
from studyhall.core.library.retrieval.evaluation import (
    EvalOutcome,
    distinct_links,
    metrics,
    parse_questions,
)
from studyhall.core.library.sources.material_import import MaterialImporter


class _Clock:
    def now(self) -> datetime:
        return datetime.now(UTC)


def _rrf(pool, names, k=60):  # type: ignore[no-untyped-def]
    score = {c.chunk.id: 0.0 for c in pool}
    for name in names:
        for r, c in enumerate(sorted(pool, key=lambda c: -c.signals[name])):
            score[c.chunk.id] += 1 / (k + r + 1)
    return sorted((Hit(c.chunk, score[c.chunk.id], c.signals) for c in pool), key=lambda h: -h.score)


async def main() -> None:
    enc = MiniLMEncoder()
    index = FileSearchIndex(None)
    await MaterialImporter(FileMaterialReader(), index, _Clock(), embedder=enc).run(str(HERE / "material"))
    scorer = MiniLMLateScorer(enc)
    text = (HERE / "questions.jsonl").read_text("utf-8")
    questions = parse_questions(text)
    sets = [json.loads(line).get("set") for line in text.splitlines() if line.strip()]
    variants = ["bm25", "dense", "rrf(bm25,dense)", "z(bm25,dense)", "z(bm25,dense,coverage)", "+late rerank"]
    outcomes: dict[str, list[EvalOutcome]] = {v: [] for v in variants}
    for q in questions:
        vec = (await enc.embed([q.question]))[0]
        pool = index.candidates(q.question, vec, limit=10)
        ranked = {
            "bm25": sorted((Hit(c.chunk, c.signals["bm25"], c.signals) for c in pool), key=lambda h: -h.score),
            "dense": sorted((Hit(c.chunk, c.signals["dense"], c.signals) for c in pool), key=lambda h: -h.score),
            "rrf(bm25,dense)": _rrf(pool, ["bm25", "dense"]),
            "z(bm25,dense)": fuse(pool, ("bm25", "dense")),
            "z(bm25,dense,coverage)": fuse(pool),
        }
        first = ranked["z(bm25,dense,coverage)"]
        judged = await scorer.rerank(q.question, [h.chunk for h in first[:RERANK_DEPTH]])
        ranked["+late rerank"] = rerank(first, {r.chunk_id: r.score for r in judged})
        for v in variants:
            outcomes[v].append(EvalOutcome(q, "NO_MATCH", distinct_links([h.chunk for h in ranked[v]])))
    print(f"{'variant':26} " + "  ".join(f"{s:>22}" for s in ("squad-normans R1/top3/MRR", "course R1/top3/MRR", "all R1/top3/MRR")))
    for v in variants:
        cells = []
        for name in ("squad-normans", "course", None):
            sel = [o for o, s in zip(outcomes[v], sets) if name is None or s == name]
            m = metrics(sel)
            cells.append(f"{m.recall_at_1:.3f}/{m.top_3:.3f}/{m.mrr:.3f}")
        print(f"{v:26} " + "  ".join(f"{c:>22}" for c in cells))


if __name__ == "__main__":
    asyncio.run(main())
