"""The course shelf (``shelf.make_shelf``) imported into a live server over its HTTP API."""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from tests.support.shelf import make_shelf


def imported_shelf(server, root: Path) -> dict[str, dict]:  # type: ignore[no-untyped-def]
    """Make the shelf under ``root``, import it, and return the sources by path."""
    return imported(server, make_shelf(root))


def imported(server, path: Path) -> dict[str, dict]:  # type: ignore[no-untyped-def]
    """Import ``path`` into the live server, wait for the run, return the sources by path."""
    headers = {"Authorization": f"Bearer {server.token}"}
    with httpx.Client(base_url=server.url, headers=headers, timeout=30) as http:
        run = http.post("/api/graph/import", json={"path": str(path)}).json()
        deadline = time.monotonic() + 60
        while http.get(f"/api/graph/import/{run['run_id']}").json()["status"] == "running":
            assert time.monotonic() < deadline, "the import did not finish"
            time.sleep(0.05)
        return {s["path"]: s for s in http.get("/api/sources").json()}
