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
    from studyhall.core.library.graph.snapshot import graph_snapshot
    from studyhall.desktop.app_runtime import app_runtime
    from studyhall.server.runtime.study_export import anki_export

    output: Path = args.output
    if output.suffix.lower() != ".apkg":
        output = output.with_name(output.name + ".apkg")

    async def run() -> tuple[int, str]:
        async with app_runtime() as runtime:
            services = runtime.services
            # A plain fold of the ledgers: the app's reader may save its fold cache, and an
            # export writes nothing to the data dir.
            notes, deck = anki_export(runtime.review, services.source_store,
                                      graph_snapshot(services.graph_store), args.scope)
            # An unwritable folder is an OSError: ``failures.report`` says which path.
            return services.deck_writer.write(notes, deck, str(output)), deck

    count, deck = asyncio.run(run())
    print(f"Wrote {count} notes to {output} (deck {deck!r}). Import it in Anki: File → "
          "Import; importing a newer export updates these notes.")
    return 0


def export_markdown(args: argparse.Namespace) -> int:
    from studyhall.core.library.graph.snapshot import graph_snapshot
    from studyhall.desktop.app_runtime import app_runtime
    from studyhall.server.runtime.study_export import markdown_export

    async def run() -> Any:
        async with app_runtime() as runtime:
            services = runtime.services
            return markdown_export(runtime.review, services.source_store,
                                   graph_snapshot(services.graph_store), services.vault_writer,
                                   str(args.dir), force=args.force)

    report = asyncio.run(run())
    print(f"{report.notes} notes in {args.dir}: {report.written} written, "
          f"{report.unchanged} unchanged, {report.removed} removed.")
    return 0

