"""Importing a folder ``studyhall export markdown`` wrote changes nothing: not the graph (the
notes importer skips each note) and not the Ask index either — the notes are the learner's own
graph, not new material to cite."""

from __future__ import annotations

import json
import os
from pathlib import Path

from studyhall.adapters.search.index import FileSearchIndex
from studyhall.core.library.export.marker import SKIP_REASON
from studyhall.desktop.cli import main

from tests.support.export_graph import seed


def test_an_exported_folder_is_not_indexed_for_ask(tmp_path, capsys):
    data = Path(os.environ["STUDYHALL_DATA_DIR"])
    seed(data)
    index = FileSearchIndex(data / "index")
    before = index.size()
    out = tmp_path / "exported"
    assert main(["export", "markdown", str(out)]) == 0
    (out / "My own note.md").write_text("# Mine\n\nA heap keeps its minimum at the root.\n")
    capsys.readouterr()
    assert main(["import", str(out), "--json", "--no-embed"]) == 0
    report = json.loads(capsys.readouterr().out)
    material = report["material"]
    assert material["imported"] == 1  # the learner's own note, and only it
    assert material["skipped"] == 3  # the three exported topics, each with the reason
    assert FileSearchIndex(data / "index").size() > before
    exported = [s for s in report["skipped"] if s["reason"] == SKIP_REASON]
    assert len(exported) == 3
