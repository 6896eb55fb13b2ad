"""``studyhall import PATH``: import notes (a Markdown file or an Obsidian vault) or an Anki deck
(``.apkg``: its notes, its review history and its cards), with progress.

Works with no API key (the model-free extractor); uses the configured model when there is one.
When the app is running on this data folder the import runs inside it (one writer per data
folder) and this command shows its progress; otherwise it runs here, through the same wiring.
Course material beside the notes (transcripts, PDFs, text) is indexed for ``studyhall ask``.
If the app dies mid-import, this command offers to finish here (``--fallback-local``: at once).
Exit status: 0 done (skipped files are reported, not fatal), 1 the import failed, 3 the app
stopped during the import and it was not finished here.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import Counter
from typing import Any

from studyhall.desktop.failures import CONNECTION_LOST, AppGone, say

SHOW_SKIPPED = 20
GONE_WAIT = 5.0  # seconds a dying app gets to quit before we decide it hangs instead


def register(subparsers: Any) -> None:
    cmd = subparsers.add_parser(
        "import",
        help="import notes: a Markdown file, an Obsidian vault folder or an Anki deck (.apkg)",
        description="Import notes into your knowledge graph. Works without an API key. An Anki "
        "deck (.apkg) brings its review history: your cards keep their schedule.",
    )
    cmd.add_argument("path", help="a Markdown file, a folder of notes (an Obsidian vault), or an "
                     "Anki deck package (.apkg)")
    cmd.add_argument(
        "--mode",
        choices=("auto", "model", "structural"),
        default="auto",
        help="extractor: the configured model when there is one (auto), the model "
        "only, or the model-free structural extractor",
    )
    cmd.add_argument(
        "--no-embed",
        action="store_true",
        help="skip embeddings, clusters and layout (search falls back to text)",
    )
    cmd.add_argument("--json", action="store_true", help="print the report as one JSON object")
    cmd.add_argument(
        "--fallback-local",
        action="store_true",
        help="if the running app stops during the import, finish the import here (without "
        "asking first)",
    )
    cmd.set_defaults(func=run_import)


def run_import(args: argparse.Namespace) -> int:
    from studyhall.server.config import load_config
    from studyhall.server.instance import live_server

    config = load_config()
    live = live_server(config.data_dir)
    if live is not None:
        try:
            return _remote(args, live)
        except CONNECTION_LOST as e:
            return _app_died(args, config, live, e)
    return asyncio.run(_local(args, config))


# --- in this process --------------------------------------------------------------------------


async def _local(args: argparse.Namespace, config: Any) -> int:
    from studyhall.desktop.app_runtime import app_runtime

    async with app_runtime(config) as runtime:
        with _Bar(quiet=args.json) as bar:
            report = await runtime.library.import_here(
                args.path,
                mode=args.mode,
                embed=not args.no_embed,
                progress=lambda p: bar.update(p.stage, p.done, p.total, p.path),
            )
    _print(report.to_dict(), args.json)
    return 0


# --- inside the running app -------------------------------------------------------------------


def _remote(args: argparse.Namespace, live: Any) -> int:
    import os

    body = {"path": os.path.abspath(args.path), "mode": args.mode, "embed": not args.no_embed}
    status, started = _call(live, "POST", "/api/graph/import", body)
    if status >= 400:
        print(f"studyhall: {started.get('message', started)}", file=sys.stderr)
        return 1
    run_id = started["run_id"]
    with _Bar(quiet=args.json) as bar:
        while True:
            status, run = _call(live, "GET", f"/api/graph/import/{run_id}")
            if status >= 400:
                print(f"studyhall: {run.get('message', run)}", file=sys.stderr)
                return 1
            p = run["progress"]
            bar.update(run["stage"], p["done"], p["total"], p.get("path"))
            if run["status"] != "running":
                break
            time.sleep(0.3)
    if run["status"] != "done":
        print(f"studyhall: the import {run['status']}: {run.get('error')}", file=sys.stderr)
        return 1
    _print(run["report"], args.json)
    return 0


def _call(live: Any, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    import http.client
    from urllib.parse import urlsplit

    url = urlsplit(live.url)
    conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", live.port, timeout=30)
    try:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Authorization": f"Bearer {live.token}", "Content-Type": "application/json"}
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        raw = response.read()
    finally:
        conn.close()
    try:
        return response.status, json.loads(raw or b"{}")
    except ValueError:
        # Not the app's JSON (another program took its port?): as good as gone.
        raise http.client.HTTPException(f"an answer that is not JSON ({len(raw)} bytes)") from None


def _app_died(args: argparse.Namespace, config: Any, live: Any, error: BaseException) -> int:
    """The app stopped answering mid-import: offer to finish here, once it is surely gone
    (two writers on one data folder would fight over the graph)."""
    from studyhall.server.instance import pid_alive

    what = _lost(error)
    deadline = time.monotonic() + GONE_WAIT
    while pid_alive(live.pid) and time.monotonic() < deadline:
        time.sleep(0.1)  # a crashing process takes a moment to go
    if pid_alive(live.pid):
        raise AppGone(
            f"The running app stopped answering during the import ({what}) but has not quit "
            f"(pid {live.pid}). Close it or wait for it, then run the same command again."
        )
    kept = "Every note it merged is kept"
    if not args.fallback_local and not _agrees(
        f"The running app stopped during the import ({what}). {kept}. Finish the import here "
        "instead? [Y/n] "
    ):
        raise AppGone(
            f"The running app stopped during the import ({what}). {kept}: run the same command "
            "again to finish it here, or add --fallback-local to do that without asking."
        )
    say(f"the running app stopped during the import ({what}); finishing it here. {kept}.")
    return asyncio.run(_local(args, config))


def _lost(error: BaseException) -> str:
    import http.client

    if isinstance(error, ConnectionRefusedError):
        return "connection refused"
    if isinstance(error, (ConnectionResetError, http.client.RemoteDisconnected)):
        return "connection reset"
    if isinstance(error, http.client.IncompleteRead):
        return "its answer was cut off"
    if isinstance(error, TimeoutError):
        return "no answer in time"
    return str(error) or type(error).__name__


def _agrees(question: str) -> bool:
    """Ask on the terminal; no terminal (a script, a pipe) means no."""
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        return False
    sys.stderr.write(question)
    sys.stderr.flush()
    try:
        answer = sys.stdin.readline()
    except (OSError, UnicodeDecodeError):
        return False
    return answer.strip().lower() in ("", "y", "yes")


# --- output -----------------------------------------------------------------------------------


class _Bar:
    """A rich progress bar per stage (nothing when printing JSON or not on a terminal)."""

    def __init__(self, quiet: bool) -> None:
        self._quiet = quiet or not sys.stderr.isatty()
        self._progress: Any = None
        self._task: Any = None
        self._stage: str | None = None

    def __enter__(self) -> _Bar:  # noqa: PYI034 - a private helper, never subclassed
        if not self._quiet:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            self._progress = Progress(
                TextColumn("{task.description:<11}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("[dim]{task.fields[path]}"),
                console=Console(stderr=True),
                transient=False,
            )
            self._progress.start()
        return self

    def update(self, stage: str, done: int, total: int, path: str | None = None) -> None:
        if self._progress is None or stage in ("done", "scanning"):
            return
        if stage != self._stage:
            self._stage = stage
            self._task = self._progress.add_task(stage, total=total or None, path="")
        self._progress.update(
            self._task, completed=done, total=total or None, path=(path or "")[-50:]
        )

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()


def _print(report: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(report, ensure_ascii=False))
        return
    print(
        f"Imported notes from {report['root']}"
        + (f" ({report['target']})" if report["target"] else "")
    )
    print(
        f"  notes: {report['notes']}  imported: {report['imported']}  unchanged: "
        f"{report['unchanged']}  skipped: {len(report['skipped'])}  deleted: "
        f"{len(report['deleted'])}"
    )
    print(
        f"  extractor: {report['extractor']}"
        + (f" ({report['extractor_note']})" if report.get("extractor_note") else "")
    )
    print(
        f"  graph: +{report['propositions']} propositions, +{report['evidence']} evidence on "
        f"existing ones, +{report['edges']} edges ({report['dropped']} findings dropped)"
    )
    anki = report.get("anki")
    if anki:
        print(
            f"  anki: {anki['decks']} deck(s); {anki['reviews']} reviews imported "
            f"({anki['reviews_in_deck']} in the deck, {anki['reviews_left_out']} reschedules "
            f"and {anki.get('reviews_cram_left_out', 0)} cram answers left out); "
            f"{anki['cards_queued']} cards joined the review queue"
            + (f", {anki['cards_suspended']} of them out of review (suspended in Anki)"
               if anki.get("cards_suspended") else "")
        )
    else:
        print(
            f"  links: {report['links']} resolved, {report['broken_links']} broken "
            "(see `studyhall sources --json`)"
        )
    upkeep = report.get("upkeep")
    if upkeep:
        cache = upkeep["embedding_cache"]
        rate = cache["hit_rate"]
        print(
            f"  embeddings: {cache['misses']} computed, {cache['hits']} from the cache"
            + (f" ({rate:.0%} hit rate)" if rate is not None else "")
            + f"; clusters: {upkeep['clusters']}"
        )
        for problem in upkeep.get("problems", []):
            print(f"  note: {problem}")
    material = report.get("material")
    if material and "error" not in material:
        print(
            f"  search index: {material['chunks']} passages "
            f"({material['imported']} files indexed, {material['unchanged']} unchanged)"
        )
    for what, items in (("skipped", report["skipped"]), ("failed", report.get("failed", []))):
        if items:
            reasons = Counter(item["reason"] for item in items)
            print(
                f"{what.capitalize()} {len(items)} file(s): "
                + "; ".join(f"{n} × {reason}" for reason, n in reasons.most_common())
            )
            for item in items[:SHOW_SKIPPED]:
                print(f"  {item['path']}: {item['reason']}")
            if len(items) > SHOW_SKIPPED:
                print(f"  … and {len(items) - SHOW_SKIPPED} more (studyhall sources --json)")
    cut = report.get("cut", [])
    if cut:
        print(f"Cut {len(cut)} note(s) (imported, but shortened):")
        for item in cut[:SHOW_SKIPPED]:
            print(f"  {item['path']}: {item['reason']}")
        if len(cut) > SHOW_SKIPPED:
            print(f"  … and {len(cut) - SHOW_SKIPPED} more (--json lists them all)")
    if report["deleted"]:
        print(
            f"Gone since the last import ({len(report['deleted'])}): "
            + ", ".join(report["deleted"][:SHOW_SKIPPED])
        )
    print(f"Done in {report['seconds']:.1f}s.")
