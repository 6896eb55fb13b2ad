"""A real app over the shelf course (``shelf.py``), driven through its HTTP API: the course
imported, then its sources by path."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path

from studyhall.server.app import build_services

from tests.support.embedder import HashEmbedder
from tests.support.server import api_client, make_config
from tests.support.shelf import make_shelf


def ready(tmp_path: Path, script: dict | None = None):  # type: ignore[no-untyped-def]
    course = make_shelf(tmp_path / "Course")
    overrides = {}
    if script is not None:
        path = tmp_path / "script.json"
        path.write_text(json.dumps(script))
        overrides["script_path"] = path
    services = replace(build_services(make_config(**overrides)), embedder=HashEmbedder())
    return course, api_client(services)


def imported(client, course: Path) -> dict[str, dict]:
    run = client.post("/api/graph/import", json={"path": str(course)}).json()
    deadline = time.monotonic() + 60
    while client.get(f"/api/graph/import/{run['run_id']}").json()["status"] == "running":
        assert time.monotonic() < deadline, "the import did not finish"
        time.sleep(0.05)
    return {s["path"]: s for s in client.get("/api/sources").json()}
