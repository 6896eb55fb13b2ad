"""The package as it was at a git revision, for benches that time the old code against the new.

``before_tree(rev)`` extracts ``src/`` at that revision (``git archive``: nothing in the work
tree or the repository changes) as a ``studyhall`` package in a temporary folder; a child
process started with ``env_for(tree)`` imports the old package instead of the working tree's.
"""

from __future__ import annotations

import atexit
import io
import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "2e15cd3"  # the revision before the design card's libraries came in (issue 13)


def before_tree(revision: str = BEFORE) -> Path:
    """A folder holding ``studyhall/`` as it was at ``revision`` (removed at exit)."""
    archive = subprocess.run(["git", "archive", "--format=tar", revision, "src"], cwd=ROOT,
                             check=True, capture_output=True).stdout
    tree = Path(tempfile.mkdtemp(prefix="studyhall-before-"))
    atexit.register(shutil.rmtree, tree, ignore_errors=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(tree, filter="data")
    (tree / "src").rename(tree / "studyhall")
    return tree


def env_for(tree: Path | None) -> dict[str, str]:
    """The environment of a child that imports the package from ``tree`` (None: the working
    tree, as installed)."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tree), env.get("PYTHONPATH")]))
    return env
