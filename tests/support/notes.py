"""Notes-import test pieces: generated vaults, an importer over real file stores, and the graph
in a form two runs can be compared by."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from studyhall.adapters.fakes import FixedClock
from studyhall.adapters.sources.vault import FileVaultReader
from studyhall.adapters.store import JsonlGraphStore, JsonSettingsStore, JsonSourceStore
from studyhall.adapters.system import RandomIds
from studyhall.core.library.graph.snapshot import graph_snapshot
from studyhall.core.library.imports.notes import NotesImporter
from studyhall.server.runtime.classroom.prompts import load_prompt
from studyhall.server.runtime.library.graph_reader import GraphReader
from studyhall.server.runtime.library.graph_upkeep import GraphUpkeep
from studyhall.server.runtime.supervisor import Supervisor

TOPICS = ["cells", "energy", "genes", "atoms", "bonds", "waves"]


def write(root: Path, rel: str, text: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


def make_vault(root: Path, notes: int = 12) -> Path:
    (root / ".obsidian").mkdir(parents=True, exist_ok=True)
    for i in range(notes):
        topic = TOPICS[i % len(TOPICS)]
        next_topic = TOPICS[(i + 1) % notes % len(TOPICS)]
        nxt = f"Note {(i + 1) % notes:02d}"
        write(
            root,
            f"{topic}/Note {i:02d}.md",
            "\n".join(
                [
                    "---",
                    f"tags: [{topic}]",
                    f"aliases: [Alias {i:02d}]",
                    "---",
                    f"Note {i:02d} is about {topic} and links to [[{nxt}]].",
                    "",
                    f"## Details of {topic}",
                    f"- The first detail of note {i:02d} concerns {topic} deeply.",
                    f"- The second detail builds on [[{nxt}#Details of {next_topic}]].",
                    "",
                    "## Steps",
                    f"1. Step one of note {i:02d} starts the process.",
                    f"2. Step two of note {i:02d} finishes the process.",
                    "",
                    "```",
                    "[[Not a link]] inside code",
                    "```",
                    "",
                ]
            ),
        )
    return root


def add_twin_notes(root: Path) -> Path:
    """Two notes about one thing. One node per note (issue 28): "Note 00".."Note 11" are too far
    apart for the hash embedder to cluster (their "Note NN: Steps" heading nodes clustered), so
    a test of clusters adds these to have one to label."""
    write(root, "cells/Cell biology basics.md", "Cells are the units of life here.\n")
    write(root, "cells/Cell biology basics again.md", "Cells divide to make more cells.\n")
    return root


def write_vault(root: Path) -> Path:
    """A small Obsidian-style vault: headings, links between notes, a broken link."""
    notes = {
        "Graphs.md": "# Graphs\n\nA graph is a set of vertices joined by edges.\n\n"
                     "## Degree\n\nThe degree of a vertex counts the edges that touch it.\n\n"
                     "See [[Trees]] and [[Paths]].\n",
        "Trees.md": "# Trees\n\nA tree is a connected graph with no cycles.\n\n"
                    "A tree on n vertices has exactly n-1 edges.\n\nBuilds on [[Graphs]].\n",
        "Paths.md": "# Paths\n\nA path is a walk that never repeats a vertex.\n\n"
                    "Two vertices are connected when some path joins them. [[Missing note]]\n",
        "Biology/Cells.md": "# Cells\n\nThe cell is the basic unit of life.\n\n"
                            "Mitochondria make most of the cell's energy as ATP.\n",
        "Biology/Respiration.md": "# Respiration\n\nCellular respiration turns glucose into ATP "
                                  "in the mitochondria.\n\nIt needs oxygen. See [[Cells]].\n",
    }
    for name, text in notes.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (root / ".obsidian").mkdir(exist_ok=True)
    return root


def importer(
    data: Path,
    embedder: Any = None,
    chat_model: Any = None,
    clock: FixedClock | None = None,
    group_notes: int = 8,
) -> NotesImporter:
    graph = JsonlGraphStore(data / "graph")
    upkeep = GraphUpkeep(
        graph_store=graph,
        source_store=JsonSourceStore(data / "sources"),
        reader=GraphReader(graph),
        embedder=embedder,
        chat_model=chat_model,
        prompt=load_prompt,
        supervisor=Supervisor(),
    )
    return NotesImporter(
        vault_reader=FileVaultReader(),
        graph_store=graph,
        source_store=JsonSourceStore(data / "sources"),
        settings_store=JsonSettingsStore(data / "settings.json"),
        clock=clock or FixedClock(),
        ids=RandomIds(),
        upkeep=upkeep,
        chat_model=chat_model,
        prompt=load_prompt,
        off_loop=asyncio.to_thread,
        no_model_reason=(lambda: None) if chat_model is not None else (lambda: "no model"),
        group_notes=group_notes,
    )


def canonical(data: Path) -> dict[str, Any]:
    """The derived graph without run ids or times: what two equivalent imports must share."""
    snap = graph_snapshot(JsonlGraphStore(data / "graph"))
    return {
        "nodes": {
            n.id: (n.text, sorted({(e.source_id, e.message_id, e.quote) for e in n.evidence}))
            for n in snap.nodes
        },
        "edges": sorted((e.source, e.target, e.kind) for e in snap.edges),
    }


def ledger_bytes(data: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(data)): p.read_bytes() for p in sorted((data / "graph").rglob("*.jsonl"))
    }
