"""Where session findings land, on the labelled finding/topic pairs: precision and recall of the
content-word rule and of the bundled MiniLM's cosine at its calibrated minimum, and each pair's
scores (to re-calibrate: a minimum between the highest pair apart and the lowest that belongs).

    .venv/bin/python bench/finding_placement.py
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.support


async def main() -> None:
    from studyhall.adapters.embed.minilm import MiniLMEmbedder
    from studyhall.core.library.extraction.finding_placement import (
        EmbeddingLikeness,
        Likeness,
        WordLikeness,
    )

    from tests.support.finding_pairs import APART, BELONG

    pairs = BELONG + APART
    judges: list[tuple[str, Likeness]] = [("words", WordLikeness()),
                                          ("minilm", EmbeddingLikeness(MiniLMEmbedder()))]
    rows = []
    for name, judge in judges:
        scores = await judge.scores(pairs)
        rows.append(scores)
        hits = [s >= judge.minimum for s in scores]
        true = sum(hits[: len(BELONG)])
        false = sum(hits[len(BELONG):])
        precision = true / (true + false) if true + false else 1.0
        print(f"{name:7s} minimum {judge.minimum:.2f}: precision {precision:.2f} "
              f"({true}/{true + false}), recall {true}/{len(BELONG)}, "
              f"apart kept apart {len(APART) - false}/{len(APART)}")
    print(f"\n{'words':>6s} {'minilm':>6s}  pair")
    for i, (finding, topic) in enumerate(pairs):
        label = "belong" if i < len(BELONG) else "apart "
        print(f"{rows[0][i]:6.2f} {rows[1][i]:6.2f}  {label} {finding} | {topic}")


if __name__ == "__main__":
    asyncio.run(main())
