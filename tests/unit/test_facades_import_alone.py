"""Each façade's package, and a module inside it, imports first in a fresh interpreter.

The façades' packages reach into each other's modules (Ask reads the graph through the
library's reader, the library records Quiz me answers through the learner's ledgers), and a
module import runs its package's ``__init__``: a façade that imported another façade's class at
run time would make whichever is imported first fail half-initialised. ``app.py`` imports them
in one order; a CLI command or a test may import them in another.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

FIRST_IMPORTS = [
    "studyhall.server.runtime.ask",
    "studyhall.server.runtime.classroom",
    "studyhall.server.runtime.learner",
    "studyhall.server.runtime.library",
    "studyhall.server.runtime.workbench",
    "studyhall.server.runtime.library.graph_reader",
    "studyhall.server.runtime.learner.ledgers",
    "studyhall.server.runtime.workbench.jobs",
    "studyhall.server.runtime.classroom.graph_context",
]


@pytest.mark.parametrize("module", FIRST_IMPORTS)
def test_a_facade_module_imports_first_without_a_cycle(module: str) -> None:
    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
