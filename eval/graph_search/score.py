"""Semantic search over the graph, scored: Recall@5, R@1 and MRR of the notes found.

    .venv/bin/python eval/graph_search/score.py [--limit 20]

Imports ``eval/graph_search/vault`` offline (structural extraction, bundled MiniLM), then asks
each question of ``questions.jsonl`` through the runtime's node search (``NodeFinder``: text
match fused with cosine over node vectors). A hit's note is the title of the note its node came from; notes
are ranked by their best node, and a question counts when a gold note is in the top k.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent


def note_titles(nodes: list[Any]) -> dict[str, str]:
    """Each source note's title: the shortest node text it yields (its topic node; headings
    are "Title: Heading")."""
    titles: dict[str, str] = {}
    for node in nodes:
        for source in node.sources:
            if source not in titles or len(node.text) < len(titles[source]):
                titles[source] = node.text
    return titles


async def score(limit: int = 20) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="studyhall-graph-search-") as tmp:
        os.environ["STUDYHALL_DATA_DIR"] = tmp
        from studyhall.server.app import build_runtime, build_services
        from studyhall.server.config import load_config

        runtime = build_runtime(build_services(load_config()))
        library = runtime.library
        await library.import_here(str(HERE / "vault"), mode="structural", embed=True)
        snapshot = library.stored_graph()
        titles = note_titles(list(snapshot.nodes))
        questions = [json.loads(line) for line in (HERE / "questions.jsonl").open()]
        at1 = at5 = rr = 0.0
        for q in questions:
            notes: list[str] = []
            for hit in await library.find_nodes(q["question"], snapshot, limit=limit):
                node = snapshot.node(hit.node_id)
                for note in [titles[s] for s in node.sources] if node else []:
                    if note not in notes:
                        notes.append(note)
            rank = next((i for i, n in enumerate(notes) if n in q["gold"]),
                        None)
            at1 += rank == 0
            at5 += rank is not None and rank < 5
            rr += 0 if rank is None else 1 / (rank + 1)
        n = len(questions)
        return {"questions": n, "R@1": at1 / n, "R@5": at5 / n, "MRR": rr / n,
                "nodes": len(snapshot.nodes)}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=20)
    result = asyncio.run(score(parser.parse_args().limit))
    print(" ".join(f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}"
                   for k, v in result.items()))
