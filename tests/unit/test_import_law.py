"""The import law is real: lint-imports fails on a planted violation (in a copy of the tree)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LINT = Path(sys.executable).with_name("lint-imports")


def _copy_tree(tmp_path: Path) -> Path:
    pkg_root = tmp_path / "pkgs"
    shutil.copytree(REPO / "src", pkg_root / "studyhall",
                    ignore=shutil.ignore_patterns("__pycache__", "ui"))
    shutil.copy(REPO / "importlinter.ini", tmp_path / "importlinter.ini")
    return pkg_root


def _lint(tmp_path: Path, pkg_root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(pkg_root), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [str(LINT), "--config", "importlinter.ini", "--no-cache"], cwd=tmp_path, env=env,
        capture_output=True, text=True, timeout=300, check=False,
    )


def test_the_copy_is_what_gets_analysed(tmp_path):
    pkg_root = _copy_tree(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(pkg_root)}
    found = subprocess.run([sys.executable, "-c", "import studyhall; print(studyhall.__file__)"],
                           env=env, capture_output=True, text=True, cwd=tmp_path, check=True)
    assert found.stdout.strip().startswith(str(pkg_root))


def test_planted_io_import_in_core_breaks_the_law(tmp_path):
    pkg_root = _copy_tree(tmp_path)
    before = _lint(tmp_path, pkg_root)
    assert "studyhall.core.planted" not in before.stdout
    (pkg_root / "studyhall" / "core" / "planted.py").write_text('"""Planted."""\nimport os\n')
    after = _lint(tmp_path, pkg_root)
    assert after.returncode != 0, after.stdout
    assert "The core imports no I/O or framework package BROKEN" in after.stdout
    assert "studyhall.core.planted -> os" in after.stdout


def test_planted_adapter_import_in_a_route_breaks_the_law(tmp_path):
    pkg_root = _copy_tree(tmp_path)
    (pkg_root / "studyhall" / "server" / "http" / "planted.py").write_text(
        '"""Planted."""\nfrom studyhall.adapters import secrets\n'
    )
    after = _lint(tmp_path, pkg_root)
    assert after.returncode != 0
    assert "Only server/app.py imports adapters BROKEN" in after.stdout
