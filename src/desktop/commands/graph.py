"""``studyhall graph export --format json|graphml``: print the derived knowledge graph.

The same derivation ``GET /api/graph`` serves (read-only; nothing is written to the data dir).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    graph = subparsers.add_parser("graph", help="work with the knowledge graph")
    actions = graph.add_subparsers(dest="graph_command", metavar="ACTION", required=True)
    export = actions.add_parser(
        "export", help="print the derived graph (nodes, edges, clusters) as JSON or GraphML")
    export.add_argument("--format", choices=("json", "graphml"), default="json",
                        help="json (the /api/graph shape, default) or graphml")
    export.add_argument("-o", "--output", type=Path,
                        help="write to this file instead of standard output")
    export.set_defaults(func=export_graph)


def render(fmt: str) -> str:
    import asyncio
    import json

    from studyhall.core.library.graph.interchange import snapshot_to_dict, snapshot_to_graphml
    from studyhall.core.library.graph.snapshot import GraphSnapshot
    from studyhall.desktop.app_runtime import app_runtime

    async def read() -> GraphSnapshot:
        async with app_runtime() as runtime:
            # A plain fold of the ledgers, not the app's reader: that one may save its fold
            # cache, and an export writes nothing. States include the learner ledgers (review
            # grades, observations), as in GET /api/graph.
            return runtime.learner.graph_with_evidence(read_only=True)

    snapshot = asyncio.run(read())
    if fmt == "graphml":
        return snapshot_to_graphml(snapshot)
    return json.dumps(snapshot_to_dict(snapshot), ensure_ascii=False, indent=2) + "\n"


def export_graph(args: argparse.Namespace) -> int:
    data = render(args.format).encode("utf-8")  # UTF-8 whatever the terminal's locale says
    if args.output is not None:
        try:
            args.output.write_bytes(data)
        except OSError as e:
            print(f"studyhall: could not write {args.output}: {e.strerror or e}. Check the "
                  "folder exists and is writable.", file=sys.stderr)
            return 1
        return 0
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()
    return 0
