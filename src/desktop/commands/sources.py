"""``studyhall sources [--json]``: every imported source and how its last import went.

JSON: a list of ``{"id", "path", "root", "kind", "status", "reason", "links", "broken_links",
...}`` — status is imported, unchanged, skipped (with the reason) or deleted; ``links`` are the
vault-relative paths the source's links resolved to, ``broken_links`` the links that resolved to
nothing, as written.
"""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(subparsers: Any) -> None:
    cmd = subparsers.add_parser("sources", help="list imported sources with their status and links")
    cmd.add_argument("--json", action="store_true", help="print one JSON list")
    cmd.set_defaults(func=run_sources)


def run_sources(args: argparse.Namespace) -> int:
    import asyncio

    from studyhall.core.contracts.sources import Source
    from studyhall.desktop.app_runtime import app_runtime

    async def listed() -> list[Source]:
        async with app_runtime() as runtime:
            return runtime.library.sources()

    sources = asyncio.run(listed())
    if args.json:
        print(json.dumps([s.model_dump(mode="json") for s in sources], ensure_ascii=False))
        return 0
    if not sources:
        print("Nothing imported yet. Run `studyhall import PATH` first.")
        return 0
    for s in sources:
        detail = f" — {s.reason}" if s.reason else ""
        broken = f", {len(s.broken_links)} broken link(s)" if s.broken_links else ""
        print(f"{s.status:<9} {s.path}  ({len(s.links)} link(s){broken}){detail}")
    return 0
