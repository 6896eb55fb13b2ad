"""``studyhall review [--json] [--limit N]``: print today's review queue.

The same queue ``GET /api/review`` serves (read-only: grading happens in the window or over the
API). ``--json`` prints that route's object; without it, one line per card and its prompt, and
the cards taken out of review, if any.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(subparsers: Any) -> None:
    review = subparsers.add_parser("review", help="print today's review queue")
    review.add_argument("--json", action="store_true", help="print the GET /api/review object")
    review.add_argument("--limit", type=int, default=50,
                        help="how many cards to list (default 50; the counts cover all)")
    review.set_defaults(func=run_review)


def read(what: str, **options: Any) -> dict[str, Any]:
    """``queue`` or ``stats`` of the learner model, over a plain fold of the graph (a read from
    the command line writes nothing, not even the fold cache)."""
    import asyncio

    from studyhall.desktop.app_runtime import app_runtime

    async def collect() -> dict[str, Any]:
        async with app_runtime() as runtime:
            if what == "queue":
                return runtime.learner.queue(read_only=True, **options)
            return runtime.learner.stats(read_only=True)

    return asyncio.run(collect())


def run_review(args: argparse.Namespace) -> int:
    if not 1 <= args.limit <= 1000:
        print("studyhall: --limit must be from 1 to 1000.", file=sys.stderr)
        return 2
    queue = read("queue", limit=args.limit)
    if args.json:
        print(json.dumps(queue, ensure_ascii=False))
        return 0
    counts = queue["counts"]
    if not counts["due_today"]:
        print("Nothing to review today. Study a topic in a session, then come back.")
    else:
        print(f"{counts['due_today']} due today ({counts['new_today']} new, "
              f"{counts['overdue']} overdue)")
    for n, card in enumerate(queue["due"], 1):
        recall = card["retrievability"]
        r = "new" if recall is None else f"R {recall:.2f}"
        print(f"{n:>3}. [{card['state']}, {r}] {card['node_id']}")
        print(f"     {card['prompt']}")
    if queue["suspended"]:  # taken out in the window; its Review dock puts them back
        print(f"{len(queue['suspended'])} out of review (you stopped reviewing them): "
              + ", ".join(c["node_id"] for c in queue["suspended"][:10])
              + (" …" if len(queue["suspended"]) > 10 else ""))
    return 0
