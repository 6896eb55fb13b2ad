"""``studyhall graph export``: the derived graph as JSON or GraphML from the real data dir."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

from studyhall.adapters.store import JsonlGraphStore
from studyhall.core.library.extraction.batching import Batch
from studyhall.core.library.extraction.coverage import chat_views
from studyhall.core.library.extraction.findings import AuditorOutput, ExtractorOutput
from studyhall.core.library.extraction.merger import KnownGraph
from studyhall.desktop.cli import main

from tests.support.library_session import CHAT, at, good_extraction, keep_all, session
from tests.support.merging import merge_run


def seed_graph(data_dir: Path, hostile: bool = False) -> None:
    extraction = good_extraction()
    if hostile:
        extraction["propositions"][0]["text"] = 'Rates <compare> & "differ" \x07 here.'
    merge_run(Batch(CHAT, tuple(chat_views(CHAT, session()))),
              ExtractorOutput.model_validate(extraction),
              AuditorOutput.model_validate(keep_all("p1", "p2")), KnownGraph(),
              JsonlGraphStore(data_dir / "graph"), run_id="run_1", started_at=at(9), at=at(10))


def data_dir() -> Path:
    return Path(os.environ["STUDYHALL_DATA_DIR"])


def test_export_json_prints_the_derived_graph(capsysbinary):
    seed_graph(data_dir())
    assert main(["graph", "export", "--format", "json"]) == 0
    graph = json.loads(capsysbinary.readouterr().out.decode("utf-8"))
    assert set(graph) == {"nodes", "edges", "clusters"}
    assert [n["state"] for n in graph["nodes"]] == ["solid", "shaky"]
    assert graph["edges"][0]["kind"] == "follows"


def test_export_graphml_is_valid_xml_with_hostile_text(capsysbinary):
    seed_graph(data_dir(), hostile=True)
    assert main(["graph", "export", "--format", "graphml"]) == 0
    root = ET.fromstring(capsysbinary.readouterr().out)
    ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
    texts = [d.text for d in root.findall(".//g:data[@key='text']", ns)]
    assert 'Rates <compare> & "differ"  here.' in texts
    assert len(root.findall(".//g:edge", ns)) == 1


def test_export_of_an_empty_data_dir_is_an_empty_graph(capsysbinary, tmp_path):
    out = tmp_path / "graph.json"
    assert main(["graph", "export", "-o", str(out)]) == 0
    assert json.loads(out.read_text()) == {"nodes": [], "edges": [], "clusters": []}
    assert not (data_dir() / "graph" / "checkpoints.jsonl").exists()  # reading wrote nothing


def test_export_to_an_unwritable_path_says_what_to_do(capsys, tmp_path):
    assert main(["graph", "export", "-o", str(tmp_path / "missing" / "g.json")]) == 1
    assert "could not write" in capsys.readouterr().err
