"""``studyhall make KIND ... --scope ...`` as a user runs it: the jobs run in the foreground with
a progress line each, the artifacts are kept (the window lists them too) and their ids — and
with ``--markdown`` their Markdown — are printed; a wrong scope is exit 2, an empty one exit 1."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from studyhall.adapters.store import JsonlArtifactStore, JsonlGraphStore
from studyhall.desktop.cli import main

from tests.support.artifact_graph import NOTES_ANSWER, cards_answer, seed_heap_graph
from tests.support.jobs import write


def data_dir() -> Path:
    return Path(os.environ["STUDYHALL_DATA_DIR"])


def scripted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **roles: object) -> None:
    monkeypatch.setenv("STUDYHALL_SCRIPT", str(write(tmp_path / "s.json", dict(roles))))


def test_make_prints_the_kept_artifacts_and_their_markdown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    scripted(tmp_path, monkeypatch, notes_writer=[NOTES_ANSWER],
             flashcards_writer=[cards_answer()])
    seed_heap_graph(JsonlGraphStore(data_dir() / "graph"))
    code = main(["make", "flashcards", "notes", "--scope", "topic:n_heap", "--count", "3",
                 "--markdown"])
    out, err = capsys.readouterr()
    assert code == 0, err
    kept = JsonlArtifactStore(data_dir() / "artifacts").kept().records
    assert sorted(a.kind for a in kept) == ["flashcards", "notes"]
    for artifact in kept:
        assert f"{artifact.id}\t{artifact.kind}\t{artifact.title}" in out
    assert "# Heaps" in out and "sift-down" in out.lower()  # the Markdown, with --markdown
    assert "Making notes, flashcards from Heaps" in err
    assert "notes: done" in err and "flashcards: done" in err and "tokens" in err


def test_make_from_a_selection_without_markdown_prints_only_ids(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    scripted(tmp_path, monkeypatch, notes_writer=[NOTES_ANSWER])
    seed_heap_graph(JsonlGraphStore(data_dir() / "graph"))
    assert main(["make", "notes", "--scope", "nodes:n_sift,n_heap"]) == 0
    out = capsys.readouterr().out
    (artifact,) = JsonlArtifactStore(data_dir() / "artifacts").kept().records
    assert artifact.scope.type == "selection" and artifact.scope.node_ids == ("n_sift", "n_heap")
    # (litellm's own log lines may land in a captured stream in-process; they are not ours)
    ours = [line for line in out.splitlines() if "LiteLLM" not in line and line.strip()]
    assert ours == [f"{artifact.id}\tnotes\t{artifact.title}"]


def test_make_refuses_a_wrong_scope_an_unknown_kind_and_an_empty_graph(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    scripted(tmp_path, monkeypatch)
    assert main(["make", "notes", "--scope", "everything"]) == 2
    assert "is not a scope" in capsys.readouterr().err
    assert main(["make", "essay", "--scope", "graph"]) == 1
    assert "Unknown artifact kind" in capsys.readouterr().err
    assert main(["make", "notes", "--scope", "graph"]) == 1
    assert "The knowledge graph is empty" in capsys.readouterr().err
