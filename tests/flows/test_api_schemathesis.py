"""The API against its own OpenAPI document, by schemathesis (every operation, every check,
positive and negative examples, a bounded number of each): no server error, no response
outside its documented status codes and schemas, 405 with ``Allow`` for an undocumented
method, and every 4xx with the ``{"error", "message"}`` body."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from studyhall.core.contracts.material import (
    MaterialFile,
    MaterialScan,
    NoteFile,
    SkippedFile,
    VaultScan,
)
from studyhall.server.services import Services

from tests.support.embedder import HashEmbedder
from tests.support.live_server import start_server

ROOT = Path(__file__).resolve().parents[2]
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
EXAMPLES = 8  # per operation and phase: the whole run stays well under a minute
# Scripted models, so the model-calling routes run the production code with no network.
SCRIPT = {role: [{"text": "ok"}] * 3 for role in ("teacher", "prober", "answerer")}

pytestmark = pytest.mark.skipif(not SCHEMATHESIS.exists(), reason="schemathesis is a dev extra")


class NoFiles:
    """Readers that find nothing: generated paths ("/", ".") must not import this machine."""

    def scan(self, path: str) -> VaultScan:
        return VaultScan(os.path.abspath(path), "", (), ())

    def read(self, scan: VaultScan, path: str) -> NoteFile | SkippedFile:
        return SkippedFile(path, "not read in this test")


class NoMaterial:
    def scan(self, path: str) -> MaterialScan:
        return MaterialScan(os.path.abspath(path), ())

    def read(self, root: str, path: str) -> MaterialFile | SkippedFile:
        return SkippedFile(path, "not read in this test")


def inert(services: Services) -> Services:
    return replace(services, embedder=HashEmbedder(), vault_reader=NoFiles(),
                   material_reader=NoMaterial())


def test_the_api_matches_its_openapi_document(tmp_path: Path) -> None:
    live = start_server(tmp_path / "data", script=SCRIPT, prepare=inert)
    report = tmp_path / "report.json"
    try:
        result = subprocess.run(
            [str(SCHEMATHESIS), "run", f"{live.url}/api/openapi.json",
             "--header", f"Authorization: Bearer {live.token}",
             "--checks", "all", "--exclude-checks", "ignored_auth",
             "--max-examples", str(EXAMPLES), "--seed", "19", "--no-shrink",
             "--phases", "examples,coverage,fuzzing",
             "--request-timeout", "20", "--continue-on-failure",
             "--report", "json", "--report-json-path", str(report)],
            cwd=ROOT, capture_output=True, text=True, timeout=240, check=False,
            env={**os.environ, "SCHEMATHESIS_HOOKS": "tests.support.schemathesis_hooks",
                 "NO_COLOR": "1"},
        )
    finally:
        live.stop()
    assert result.returncode == 0, result.stdout[-20000:] + result.stderr[-3000:]
    ran = json.loads(report.read_text()) if report.exists() else {}
    assert ran, result.stdout[-3000:]
