"""A small graph for the export tests, written straight into a data dir's ledgers: three
topics in one labelled cluster (maths, code and HTML in their text), edges between them, one
topic cited by an imported note, and a review grade so one topic has a next review."""

from __future__ import annotations

import sqlite3
import zipfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studyhall.adapters.store import JsonlGraphStore, JsonlLearnerStore, JsonSourceStore
from studyhall.core.contracts.graph import (
    Cluster,
    EdgeAdded,
    Evidence,
    PropositionCreated,
    RunCheckpoint,
)
from studyhall.core.contracts.learner import ReviewGraded
from studyhall.core.contracts.sources import Source

AT = datetime(2025, 3, 1, 9, tzinfo=UTC)
CHAT = "chat_export"
NOTE = "src_note_calculus"
TOPICS = {
    "n_power": ("The power rule says $\\frac{d}{dx} x^n = n x^{n-1}$ for every real exponent.",
                "the power rule: d/dx x^n = n x^(n-1)"),
    "n_code": ("In Python `len(xs)` returns how many items a list <xs> holds & never fails.",
               "len gives the number of items"),
    "n_chain": ("The chain rule differentiates a composition of functions.",
                "chain rule: derivative of the outer times the inner"),
}
CLUSTER = Cluster(id="c_calculus", node_ids=("n_power", "n_chain"), label="Calculus rules")


def seed(data_dir: Path) -> None:
    graph = JsonlGraphStore(data_dir / "graph")
    graph.append_propositions([
        PropositionCreated(id=f"p_{nid}", node_id=nid, text=text,
                           evidence=(Evidence(source_id=NOTE if nid == "n_chain" else CHAT,
                                              message_id="m_1", quote=quote),),
                           source_id=NOTE if nid == "n_chain" else CHAT, run_id="run_1", at=AT)
        for nid, (text, quote) in TOPICS.items()])
    graph.append_edges([
        EdgeAdded.model_validate({"id": "e_1", "from": "n_power", "to": "n_chain",
                                  "relation": "follows", "source_id": CHAT, "run_id": "run_1",
                                  "at": AT}),
        EdgeAdded.model_validate({"id": "e_2", "from": "n_code", "to": "n_power",
                                  "relation": "supports", "source_id": CHAT, "run_id": "run_1",
                                  "at": AT}),
    ])
    graph.append_checkpoint(RunCheckpoint(id="run_1", source_id=CHAT, started_at=AT,
                                          finished_at=AT, propositions=3))
    graph.save_clusters([CLUSTER])
    JsonSourceStore(data_dir / "sources").save(Source(
        id=NOTE, path="maths/Calculus notes.md", root=str(data_dir / "vault"), kind="note",
        status="imported", imported_at=AT))
    JsonlLearnerStore(data_dir / "learner").append_grades([
        ReviewGraded(id="rev_1", node_id="n_power", grade="good", at=AT)])


def read_apkg(path: Path) -> list[dict[str, Any]]:
    """The notes of an .apkg, read with sqlite: guid, fields (split on Anki's \\x1f), tags."""
    with zipfile.ZipFile(path) as zf, _tmp_copy(zf.read("collection.anki2")) as db:
        conn = sqlite3.connect(db)
        try:
            rows = conn.execute("SELECT guid, flds, tags, mid FROM notes ORDER BY guid").fetchall()
            decks = conn.execute("SELECT decks FROM col").fetchone()[0]
        finally:
            conn.close()
    return [{"guid": g, "fields": f.split("\x1f"), "tags": t.split(), "mid": m, "decks": decks}
            for g, f, t, m in rows]


class _tmp_copy:
    def __init__(self, data: bytes) -> None:
        import tempfile

        self._dir = tempfile.TemporaryDirectory()
        self.path = Path(self._dir.name) / "collection.anki2"
        self.path.write_bytes(data)

    def __enter__(self) -> Path:
        return self.path

    def __exit__(self, *exc: object) -> None:
        self._dir.cleanup()
