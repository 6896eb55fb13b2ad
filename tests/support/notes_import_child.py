"""A child process for the kill tests: imports a vault into a data dir, printing each step.

``python -m tests.support.notes_import_child VAULT DATA [N]`` — with N, the process SIGKILLs
itself in the middle of its N-th merge (after the edges are appended, before the coverage and
the checkpoint), the worst moment for a crash.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from studyhall.adapters.store import JsonlGraphStore

from tests.support.notes import importer


def main() -> None:
    vault, data = sys.argv[1], Path(sys.argv[2])
    kill_at = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    if kill_at:
        # The n-th merge write: a group of notes writes its propositions (its notes make no
        # edges: headings are sections, issue 28), the links merge its edges.
        seen = {"n": 0}

        def then_die(original):  # type: ignore[no-untyped-def]
            def append(self, records):  # type: ignore[no-untyped-def]
                original(self, records)
                seen["n"] += 1
                if seen["n"] == kill_at:
                    os.kill(os.getpid(), signal.SIGKILL)
            return append

        for name in ("append_propositions", "append_edges"):
            setattr(JsonlGraphStore, name, then_die(getattr(JsonlGraphStore, name)))

    def progress(p):  # type: ignore[no-untyped-def]
        print(p.stage, p.done, flush=True)

    asyncio.run(importer(data).run(vault, embed=False, progress=progress))
    print("finished", flush=True)


if __name__ == "__main__":
    main()
