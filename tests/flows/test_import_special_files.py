"""A named pipe (FIFO) with a note's name in an imported folder is skipped with its reason, never
opened; and while an import reads files the server keeps answering (no file I/O on its loop)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from studyhall.adapters.sources.material import FileMaterialReader
from studyhall.adapters.sources.text import read_text
from studyhall.adapters.sources.vault import FileVaultReader
from studyhall.core.contracts.material import MaterialFile, SkippedFile
from studyhall.server.services import Services

from tests.support.embedder import HashEmbedder
from tests.support.live_server import start_server
from tests.support.notes import make_vault

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
PIPE = "named pipe (FIFO)"


def within(seconds: float, work: Callable[[], Any]) -> Any:
    """``work()``'s result, or a failure (not a hung test) when it blocks: opening a FIFO
    without a writer waits forever."""
    got: list[Any] = []
    thread = threading.Thread(target=lambda: got.append(work()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert got, f"still blocked after {seconds} s"
    return got[0]


def fifo_vault(root: Path) -> Path:
    vault = make_vault(root, notes=3)
    os.mkfifo(vault / "pipe.md")
    os.mkfifo(vault / "cells" / "pipe.txt")
    return vault


def test_scans_skip_a_fifo_with_its_reason(tmp_path: Path) -> None:
    vault = fifo_vault(tmp_path / "Vault")
    notes = within(10, lambda: FileVaultReader().scan(str(vault)))
    assert "pipe.md" not in notes.notes and "pipe.md" not in notes.files
    assert {s.path: s.reason for s in notes.skipped}["pipe.md"].startswith(f"a {PIPE}")
    material = within(10, lambda: FileMaterialReader().scan(str(vault)))
    assert not {"pipe.md", "cells/pipe.txt"} & set(material.files)
    reasons = {s.path: s.reason for s in material.skipped}
    assert PIPE in reasons["pipe.md"] and PIPE in reasons["cells/pipe.txt"]
    # Asked for the pipe itself: skipped, not opened.
    one = within(10, lambda: FileMaterialReader().scan(str(vault / "pipe.md")))
    assert one.files == () and PIPE in one.skipped[0].reason


def test_a_fifo_swapped_in_after_the_scan_is_refused_not_waited_on(tmp_path: Path) -> None:
    vault = fifo_vault(tmp_path / "Vault")
    got = within(10, lambda: read_text(str(vault), "cells/pipe.txt"))
    assert isinstance(got, SkippedFile) and PIPE in got.reason
    reader = FileVaultReader()
    scan = replace(reader.scan(str(vault)), notes=("pipe.md",))  # as if it was a note then
    note = within(10, lambda: reader.read(scan, "pipe.md"))
    assert isinstance(note, SkippedFile) and PIPE in note.reason


class SlowMaterial(FileMaterialReader):
    """Reads each file slowly, the way a file on a stalled network drive does."""

    def __init__(self) -> None:
        super().__init__()
        self.reading = threading.Event()

    def read(self, root: str, path: str) -> MaterialFile | SkippedFile:
        self.reading.set()
        time.sleep(0.5)  # blocks whichever thread runs it
        return super().read(root, path)


def test_the_server_answers_while_an_import_reads_and_the_fifo_is_reported(
    tmp_path: Path,
) -> None:
    vault = fifo_vault(tmp_path / "Vault")
    slow = SlowMaterial()

    def prepare(services: Services) -> Services:
        return replace(services, embedder=HashEmbedder(), material_reader=slow)

    live = start_server(tmp_path / "data", prepare=prepare)
    try:
        with httpx.Client(base_url=live.url, timeout=5,
                          headers={"Authorization": f"Bearer {live.token}"}) as client:
            started = client.post("/api/graph/import", json={"path": str(vault)})
            assert started.status_code == 202, started.text
            run_id = started.json()["run_id"]
            assert slow.reading.wait(30), "the import never reached the course files"
            answered = []
            while client.get(f"/api/graph/import/{run_id}").json()["status"] == "running":
                began = time.monotonic()
                assert client.get("/api/health").json()["ok"] is True
                answered.append(time.monotonic() - began)
            assert answered and max(answered) < 0.4, answered  # never behind a 0.5 s read
            run = client.get(f"/api/graph/import/{run_id}").json()
        assert run["status"] == "done", run
        skipped = {s["path"]: s["reason"] for s in run["report"]["skipped"]}
        assert PIPE in skipped["pipe.md"]
        assert run["report"]["imported"] == 3
        assert run["report"]["material"]["skipped"] == 2  # pipe.md and cells/pipe.txt
    finally:
        live.stop()
