"""``studyhall make KIND [KIND ...] --scope ...``: study artifacts from any scope, made in the
foreground — one job per kind, in parallel, with a progress line per job (tokens, cost) — then
kept like the window's, so they show in its Artifacts view. Prints each artifact's id (and its
Markdown with ``--markdown``). Ctrl+C stops the jobs (nothing half-written is kept).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING, Any

from studyhall.core.contracts.scope_text import SCOPE_HELP
from studyhall.desktop.failures import FAILED, OK, UsageError, say

if TYPE_CHECKING:  # the command's module stays light: argparse only at start-up
    from studyhall.core.contracts.artifacts import Scope

POLL = 0.2  # seconds between looks at the running jobs


def register(subparsers: Any) -> None:
    make = subparsers.add_parser(
        "make", help="make study artifacts (notes, flashcards, ...) from a scope",
        description="Make study artifacts from part of your knowledge graph, a source or a "
        "session. Kinds: notes, flashcards, study_plan, study_guide, mind_map.")
    make.add_argument("kinds", nargs="+", metavar="KIND", help="what to make (one job each)")
    make.add_argument("--scope", required=True, help=f"what to make it from: {SCOPE_HELP}")
    make.add_argument("--brief", help="what to stress (a sentence)")
    make.add_argument("--count", type=int, help="how many flashcards (3-30)")
    make.add_argument("--markdown", action="store_true",
                      help="print each artifact's Markdown after its id")
    make.set_defaults(func=run_make)


def parse_scope(text: str) -> Scope:
    """``--scope`` in the one scope grammar; ``UsageError`` (exit 2) when it is not one."""
    from studyhall.core.contracts.scope_text import parse_scope as parse_text
    from studyhall.core.errors import InvalidInput
    try:
        return parse_text(text)
    except InvalidInput as e:
        raise UsageError(f"--scope {e}") from None


def _cost(view: dict[str, Any]) -> str:
    usage = view.get("usage") or {}
    parts = []
    tokens = (usage.get("input_tokens") or 0) + (usage.get("output_tokens") or 0)
    if tokens:
        parts.append(f"{tokens:,} tokens")
    if usage.get("cost_usd") is not None:
        parts.append(f"${usage['cost_usd']:.4f}")
    return f" ({', '.join(parts)})" if parts else ""


def run_make(args: argparse.Namespace) -> int:
    from rich.console import Console
    from studyhall.core.contracts.artifacts import artifact_id
    from studyhall.desktop.app_runtime import app_runtime

    scope = parse_scope(args.scope)
    progress = Console(stderr=True, highlight=False)

    async def run() -> tuple[list[dict[str, Any]], list[str]]:
        async with app_runtime() as runtime:
            bench = runtime.workbench
            jobs = await bench.make_artifacts(args.kinds, scope, args.brief, args.count)
            label = jobs[0].input.get("topic") if jobs else ""
            progress.print(f"Making {', '.join(j.kind for j in jobs)} from {label}")
            shown: dict[str, str] = {}
            try:
                while True:
                    current = [bench.job(j.id) for j in jobs]
                    for job in current:
                        view = bench.job_progress(job)
                        line = f"  {job.kind}: {view['status']}{_cost(view)}"
                        if job.status == "running" and view["usage"] is None:
                            line = f"  {job.kind}: writing…"
                        if shown.get(job.id) != line:
                            shown[job.id] = line
                            progress.print(line)
                    if all(j.status in ("done", "error", "aborted") for j in current):
                        break
                    await asyncio.sleep(POLL)
                await bench.settled()  # the keeps that follow a finish
            except asyncio.CancelledError:  # Ctrl+C: stop the jobs, keep nothing half-made
                for job in jobs:
                    await bench.abort_job(job.id)
                raise
            made, failed = [], []
            for job in current:
                if job.status == "done":
                    made.append(await asyncio.to_thread(bench.artifact, artifact_id(job.id, job.kind)))
                else:
                    failed.append(f"{job.kind}: {job.error or job.status}")
            return made, failed

    made, failed = asyncio.run(run())
    for item in made:
        print(f"{item['id']}\t{item['kind']}\t{item['title']}")
        if args.markdown:
            print()
            print(item["markdown"].rstrip())
            print()
    for problem in failed:
        say(problem)
    if made:
        print("Open them in the app's Artifacts view.", file=sys.stderr)
    return FAILED if failed else OK
