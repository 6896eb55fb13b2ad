"""Killing an import half-way (a real child process, SIGKILL) and importing again converges to
exactly the graph of one clean import — killed between merges at any moment, or inside a merge
after some ledgers were appended and before its checkpoint."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.notes import canonical, importer, make_vault

ROOT = Path(__file__).resolve().parents[2]


def child(vault: Path, data: Path, *extra: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "STUDYHALL_DATA_DIR": str(data)}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.support.notes_import_child", str(vault), str(data), *extra],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory):
    base = tmp_path_factory.mktemp("clean")
    vault = make_vault(base / "Vault", notes=30)
    data = base / "data"
    import asyncio

    asyncio.run(importer(data).run(str(vault), embed=False))
    return vault, canonical(data)


@pytest.mark.parametrize("after", [("extracting", 2), ("extracting", 17), ("extracting", 29)])
async def test_sigkill_at_any_point_then_reimport_converges(clean, tmp_path: Path, after):
    vault, expected = clean
    data = tmp_path / "data"
    proc = child(vault, data)
    stage, count = after
    assert proc.stdout is not None
    for line in proc.stdout:
        parts = line.split()
        if parts[:1] == [stage] and int(parts[1]) >= count:
            proc.send_signal(signal.SIGKILL)
            break
    proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.read() if proc.stderr else ""
    partial = canonical(data)
    assert partial != expected  # it really stopped half-way
    await importer(data).run(str(vault), embed=False)
    assert canonical(data) == expected


# Notes commit in groups of 8 (merge writes #1-#4 for 30 notes), then the links (#5).
@pytest.mark.parametrize("kill_at", [1, 3, 5])
async def test_sigkill_inside_a_merge_then_reimport_converges(clean, tmp_path: Path, kill_at):
    vault, expected = clean
    data = tmp_path / "data"
    proc = child(vault, data, str(kill_at))
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL, err
    assert "finished" not in out
    await importer(data).run(str(vault), embed=False)
    assert canonical(data) == expected
    again = await importer(data).run(str(vault), embed=False)
    assert (again.propositions, again.edges) == (0, 0)
