"""Graph shape of a model-free notes import: notes, nodes, edges and time, no embeddings.

    .venv/bin/python bench/import_shape.py [--notes 170]

Imports a real-shaped vault (``tests/support/real_vault.py``: long notes with nested headings,
lists, code blocks, callouts, wikilinks to notes, headings and blocks, embeds) into a fresh data
folder through the app's own wiring, and prints how many nodes and edges the graph got for how
many notes and headings, and how long the import took (issue 14: one node per note and heading,
not one per sentence).
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
        os.environ["STUDYHALL_DATA_DIR"] = str(Path(tmp) / "data")
        from studyhall.core.library.graph.snapshot import graph_snapshot
        from studyhall.server.app import build_runtime, build_services
        from studyhall.server.config import load_config

        services = build_services(load_config())
        importer = build_runtime(services).imports.notes
        start = time.perf_counter()
        report = await importer.run(str(vault.root), mode="structural", embed=False)
        seconds = time.perf_counter() - start
        snap = graph_snapshot(services.graph_store)
        print(f"vault: {vault.notes} notes, {vault.headings} headings, "
              f"{len(vault.links)} note links")
        print(f"graph: {len(snap.nodes)} nodes, {len(snap.edges)} edges "
              f"({len(snap.nodes) / vault.notes:.1f} nodes per note)")
        print(f"import without embeddings: {seconds:.2f} s ({report.imported} notes imported)")


if __name__ == "__main__":
    asyncio.run(main())
