"""``studyhall export markdown DIR``: one note per topic with frontmatter and wikilinks that all
resolve (checked with the notes importer's resolver), an idempotent re-export, a guard around
the learner's own vaults, and an import of the export that changes nothing in the graph."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import yaml
from studyhall.adapters.store import JsonlGraphStore
from studyhall.core.library.export.filenames import note_names, stem_of
from studyhall.core.library.graph.snapshot import graph_snapshot
from studyhall.core.library.sources.notes import VaultIndex, parse_note
from studyhall.desktop.cli import main

from tests.support.export_graph import seed


def data_dir() -> Path:
    return Path(os.environ["STUDYHALL_DATA_DIR"])


def frontmatter(text: str) -> dict:
    return yaml.safe_load(text.split("---\n")[1])


def export(folder: Path, *extra: str) -> int:
    return main(["export", "markdown", str(folder), *extra])


def test_one_note_per_topic_with_frontmatter_evidence_and_links(tmp_path, capsys):
    seed(data_dir())
    out = tmp_path / "vault"
    assert export(out) == 0
    assert "3 notes" in capsys.readouterr().out
    notes = {p.name: p.read_text("utf-8") for p in out.glob("*.md")}
    assert len(notes) == 3
    by_id = {frontmatter(t)["id"]: t for t in notes.values()}
    power = by_id["n_power"]
    meta = frontmatter(power)
    assert meta["studyhall"] == "export" and meta["id"] == "n_power"
    assert meta["next_review"] is not None  # graded once: it has a due date
    assert {"mastery", "state", "cluster", "sources"} <= set(meta)
    assert meta["cluster"] == "Calculus rules"
    chain = by_id["n_chain"]
    assert frontmatter(chain)["next_review"] is None  # never reviewed
    assert "> chain rule: derivative of the outer times the inner" in chain
    assert "> — maths/Calculus notes.md" in chain
    assert "Builds on: [[The power rule says" in chain


def test_every_wikilink_resolves_with_the_importers_resolver(tmp_path):
    seed(data_dir())
    out = tmp_path / "vault"
    assert export(out) == 0
    paths = [p.name for p in out.glob("*.md")]
    index = VaultIndex(paths)
    links = 0
    for path in paths:
        doc = parse_note(path, (out / path).read_text("utf-8"))
        for link in doc.links:
            links += 1
            assert index.resolve(link.target, path).ok, (path, link.target)
    assert links == 4  # two edges, seen from both ends


def test_a_re_export_rewrites_only_what_changed(tmp_path, capsys):
    seed(data_dir())
    out = tmp_path / "vault"
    assert export(out) == 0
    mtimes = {p.name: p.stat().st_mtime_ns for p in out.glob("*.md")}
    before = {p.name: p.read_bytes() for p in out.glob("*.md")}
    capsys.readouterr()
    assert export(out) == 0
    assert "0 written, 3 unchanged, 0 removed" in capsys.readouterr().out
    assert {p.name: p.stat().st_mtime_ns for p in out.glob("*.md")} == mtimes
    assert {p.name: p.read_bytes() for p in out.glob("*.md")} == before


_KILLED_EXPORT = """
import os, sys, time
from studyhall.desktop.cli import main
real = os.replace
def stuck(source, target, *a, **k):
    if not str(source).endswith(".partial"):
        return real(source, target, *a, **k)
    print("writing", flush=True)
    time.sleep(60)  # killed here: the note is in its partial, not yet in place
os.replace = stuck
sys.exit(main(["export", "markdown", sys.argv[1]]))
"""


def test_a_rerun_removes_the_partial_a_killed_export_left(tmp_path):
    seed(data_dir())
    out = tmp_path / "vault"
    out.mkdir()
    mine = out / ".draft.md.partial"  # the learner's own hidden file: never taken for ours
    mine.write_text("mine")
    child = subprocess.Popen([sys.executable, "-c", _KILLED_EXPORT, str(out)],
                             stdout=subprocess.PIPE, env=dict(os.environ))
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == b"writing"
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(10)
    left = [p.name for p in out.iterdir() if p != mine]
    assert len(left) == 1 and left[0].startswith(".") and left[0].endswith(".partial"), left
    assert export(out) == 0
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == [mine.name]
    assert mine.read_text() == "mine"
    fresh = tmp_path / "fresh"
    assert export(fresh) == 0  # the re-run's export is complete: what a clean run writes
    assert {p.name: p.read_bytes() for p in out.glob("*.md")} == {
        p.name: p.read_bytes() for p in fresh.glob("*.md")}
    assert len(list(out.glob("*.md"))) == 3


def test_it_will_not_write_into_a_vault_unless_told_to(tmp_path, capsys):
    seed(data_dir())
    own = tmp_path / "own"
    own.mkdir()
    (own / "My note.md").write_text("# mine\n")
    assert export(own) == 1
    assert "--force" in capsys.readouterr().err
    assert sorted(p.name for p in own.iterdir()) == ["My note.md"]
    obsidian = tmp_path / "obs"
    (obsidian / ".obsidian").mkdir(parents=True)
    assert export(obsidian) == 1
    imported = data_dir() / "vault" / "exports"  # inside the vault the seed imported
    assert export(imported) == 1
    assert not imported.exists()
    assert export(own, "--force") == 0  # the learner picked it: write, keep their note
    assert (own / "My note.md").read_text() == "# mine\n"
    assert len(list(own.glob("*.md"))) == 4


def test_importing_the_export_back_changes_nothing_in_the_graph(tmp_path, capsys):
    seed(data_dir())
    out = tmp_path / "vault"
    assert export(out) == 0
    store = JsonlGraphStore(data_dir() / "graph")
    before = graph_snapshot(store)
    assert main(["import", str(out), "--json", "--no-embed"]) == 0
    report = capsys.readouterr().out
    assert "studyhall export markdown" in report  # each note skipped, with the reason
    after = graph_snapshot(JsonlGraphStore(data_dir() / "graph"))
    assert [n.id for n in after.nodes] == [n.id for n in before.nodes]
    assert [e.id for e in after.edges] == [e.id for e in before.edges]


def test_file_names_are_safe_unique_and_stable():
    names = note_names({"a": "What is a/b: x?", "b": "what is a/b: X?", "c": "CON", "d": "..."})
    assert len({n.casefold() for n in names.values()}) == 4
    assert all(not set(n) & set('/\\:*?"<>|#^[]') for n in names.values())
    assert names["a"] != names["b"] and names["a"].startswith("What is a b x (")
    assert names["c"] == "Topic CON.md"
    assert note_names({"b": "what is a/b: X?", "a": "What is a/b: x?"}) == {
        "a": names["a"], "b": names["b"]}  # independent of order
    assert len(stem_of("word " * 40)) <= 60
