"""The export's partial files: a stale one (its writer gone) is removed by name and folder alone,
a live writer's is kept, and nothing that merely looks similar is touched."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from studyhall.adapters.export.partial_files import partial_path, sweep_partials, write_whole


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid  # reaped: no process has it (until the system hands it out again)


def test_only_stale_partials_of_the_exports_own_targets_are_removed(tmp_path: Path) -> None:
    gone = dead_pid()
    stale = [f".Topic.md.{gone}.abcd_123.partial", ".Old note.md.k2j4h6g8.partial"]
    kept = [
        f".Topic.md.{os.getppid()}.abcdefgh.partial",  # a live writer's (our parent runs)
        f".deck.apkg.{gone}.abcdefgh.partial",  # not a note: another export's target
        ".draft.md.partial", "notes.md.partial", ".Topic.md.abc.partial",  # not our pattern
        "Topic.md",
    ]
    for name in stale + kept:
        (tmp_path / name).write_text("x")
    (tmp_path / f".Dir.md.{gone}.abcdefgh.partial").mkdir()  # a folder: never ours
    assert sweep_partials(tmp_path, lambda target: target.endswith(".md")) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [*kept, f".Dir.md.{gone}.abcdefgh.partial"])


def test_a_partial_is_named_for_its_target_and_writer(tmp_path: Path) -> None:
    partial = partial_path(tmp_path / "Topic.md")
    assert partial.name.startswith(f".Topic.md.{os.getpid()}.")
    assert partial.name.endswith(".partial") and partial.parent == tmp_path
    assert sweep_partials(tmp_path, lambda t: True) == 0  # ours, still being written
    write_whole(tmp_path / "Topic.md", b"whole")
    assert (tmp_path / "Topic.md").read_bytes() == b"whole"


def test_a_missing_folder_has_nothing_to_sweep(tmp_path: Path) -> None:
    assert sweep_partials(tmp_path / "nowhere", lambda t: True) == 0
