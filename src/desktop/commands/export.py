"""``studyhall export anki|markdown``: the graph as an Anki deck (``.apkg``) or as a folder of
Markdown notes Obsidian opens. Read-only on the data dir; the output is written atomically."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from studyhall.core.contracts.scope_text import SCOPE_HELP


def register(subparsers: Any) -> None:
    export = subparsers.add_parser("export", help="export the graph to Anki or Markdown")
    kinds = export.add_subparsers(dest="export_command", metavar="FORMAT", required=True)
    anki = kinds.add_parser(
        "anki", help="write an Anki deck (.apkg); re-exporting updates the same Anki notes")
    anki.add_argument("--scope", default="graph", help=f"what to export: {SCOPE_HELP}")
    anki.add_argument("-o", "--output", type=Path, required=True, help="the .apkg to write")
    anki.set_defaults(func=export_anki)
    markdown = kinds.add_parser(
        "markdown", help="write one Markdown note per topic, with wikilinks (an Obsidian vault)")
    markdown.add_argument("dir", type=Path, help="the folder to write the notes into")
    markdown.add_argument(
        "--force", action="store_true",
        help="write even into a folder that holds your own notes or an imported vault")
    markdown.set_defaults(func=export_markdown)


def export_anki(args: argparse.Namespace) -> int:
    from studyhall.desktop.app_runtime import app_runtime

    output: Path = args.output
    if output.suffix.lower() != ".apkg":
        output = output.with_name(output.name + ".apkg")

    async def run() -> tuple[int, str]:
        async with app_runtime() as runtime:
            # Over a plain fold of the ledgers: an export writes nothing to the data dir. An
            # unwritable folder is an OSError: ``failures.report`` says which path.
            return runtime.learner.write_anki_deck(args.scope, str(output))

    count, deck = asyncio.run(run())
    print(f"Wrote {count} notes to {output} (deck {deck!r}). Import it in Anki: File → "
          "Import; importing a newer export updates these notes.")
    return 0


def export_markdown(args: argparse.Namespace) -> int:
    from studyhall.desktop.app_runtime import app_runtime

    async def run() -> Any:
        async with app_runtime() as runtime:
            return runtime.learner.write_markdown(str(args.dir), force=args.force)

    report = asyncio.run(run())
    print(f"{report.notes} notes in {args.dir}: {report.written} written, "
          f"{report.unchanged} unchanged, {report.removed} removed.")
    return 0

