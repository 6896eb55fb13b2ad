"""Graph shape of a model-free notes import: notes, nodes, edges and time, no embeddings.

    .venv/bin/python bench/import_shape.py [--notes 170]

Imports a real-shaped vault (``tests/support/real_vault.py``: long notes with nested headings,
lists, code blocks, callouts, wikilinks to notes, headings and blocks, embeds) into a fresh data
folder through the notes importer over the real file stores (``tests/support/notes.py``, as the
golden tests), and prints how many nodes and edges the graph got for how many notes and
headings, and how long the import took (issue 14: not one node per sentence; issue 28: one node
per note, its headings its sections, its links the edges).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.support


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=170)
    args = parser.parse_args()
    from tests.support.real_vault import make_real_vault

    with tempfile.TemporaryDirectory(prefix="studyhall-shape-") as tmp:
        vault = make_real_vault(Path(tmp) / "Vault", notes=args.notes)
        from studyhall.adapters.store import JsonlGraphStore
        from studyhall.core.library.graph.snapshot import graph_snapshot

        from tests.support.notes import importer

        data = Path(tmp) / "data"
        start = time.perf_counter()
        report = await importer(data).run(str(vault.root), mode="structural", embed=False)
        seconds = time.perf_counter() - start
        snap = graph_snapshot(JsonlGraphStore(data / "graph"))
        print(f"vault: {vault.notes} notes, {vault.headings} headings, "
              f"{len(vault.links)} note links")
        print(f"graph: {len(snap.nodes)} nodes, {len(snap.edges)} edges "
              f"({len(snap.nodes) / vault.notes:.1f} nodes per note)")
        print(f"import without embeddings: {seconds:.2f} s ({report.imported} notes imported)")


if __name__ == "__main__":
    asyncio.run(main())
