"""``studyhall import PATH`` and ``studyhall sources --json`` as a user runs them (children)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support.notes import make_vault, write
from tests.support.server import child_env


def studyhall(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "studyhall", *args],
        env=child_env(data),
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def test_import_then_sources_json(tmp_path: Path):
    vault = make_vault(tmp_path / "Vault", notes=4)
    write(vault, "cells/Loose.md", "Links to [[Nowhere at all]] and [[Note 01|one]].")
    write(vault, "huge.md", b"\xff\xfe\x00")
    data = tmp_path / "data"

    first = studyhall(data, "import", str(vault), "--no-embed", "--json")
    assert first.returncode == 0, first.stderr
    report = json.loads(first.stdout)
    assert (report["notes"], report["imported"], report["extractor"]) == (5, 5, "structural")
    assert report["skipped"] == [{"path": "huge.md", "reason": "a binary file, not text"}]
    assert report["material"]["chunks"] > 0  # the same files are searchable by `studyhall ask`

    listing = studyhall(data, "sources", "--json")
    assert listing.returncode == 0, listing.stderr
    by_path = {s["path"]: s for s in json.loads(listing.stdout)}
    loose = by_path["cells/Loose.md"]
    assert loose["status"] == "imported"
    assert loose["links"] == ["energy/Note 01.md"]
    assert loose["broken_links"] == ["Nowhere at all"]
    assert by_path["huge.md"]["status"] == "skipped"
    assert {"id", "path", "status", "reason", "links", "broken_links"} <= set(loose)

    again = studyhall(data, "import", str(vault), "--no-embed")
    assert again.returncode == 0, again.stderr
    assert "imported: 0  unchanged: 5" in again.stdout
    assert "1 × a binary file, not text" in again.stdout
    statuses = {
        s["path"]: s["status"] for s in json.loads(studyhall(data, "sources", "--json").stdout)
    }
    assert statuses["cells/Loose.md"] == "unchanged"


def test_errors_are_plain_and_exit_nonzero(tmp_path: Path):
    data = tmp_path / "data"
    missing = studyhall(data, "import", str(tmp_path / "nope"))
    assert missing.returncode == 1
    assert "There is nothing at" in missing.stderr and "Traceback" not in missing.stderr
    vault = make_vault(tmp_path / "Vault", notes=1)
    forced = studyhall(data, "import", str(vault), "--mode", "model", "--no-embed")
    assert forced.returncode == 1 and "Traceback" not in forced.stderr
    assert "extractor" in forced.stderr


def test_with_the_app_running_the_import_runs_inside_it(tmp_path: Path):
    from tests.support.server import get, running_child

    vault = make_vault(tmp_path / "Vault", notes=3)
    data = tmp_path / "data"
    with running_child(data) as (_child, info):
        done = studyhall(data, "import", str(vault), "--no-embed", "--json")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["imported"] == 3
        status, runs = get(info, "/api/graph/imports", token=info.token)
        assert status == 200 and [r["status"] for r in runs] == ["done"]  # the app's own run
