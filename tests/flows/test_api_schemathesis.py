"""The API against its own OpenAPI document, by schemathesis (every operation, every check,
positive and negative examples, a bounded number of each): no server error, no response
outside its documented status codes and schemas, 405 with ``Allow`` for an undocumented
method, and every 4xx with the ``{"error", "message"}`` body."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from studyhall.core.contracts.material import (
    MaterialFile,
    MaterialScan,
    NoteFile,
    SkippedFile,
    VaultScan,
)
from studyhall.server.services import Services

from tests.support.course import OverlapScorer
from tests.support.embedder import HashEmbedder
from tests.support.live_server import start_server

ROOT = Path(__file__).resolve().parents[2]
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
EXAMPLES = 3  # per operation in the fuzzing phase (coverage makes its own boundary cases)
# Scripted models, so the model-calling routes run the production code with no network.
SCRIPT = {role: [{"text": "ok"}] * 3 for role in ("teacher", "prober", "answerer")}

pytestmark = pytest.mark.skipif(not SCHEMATHESIS.exists(), reason="schemathesis is a dev extra")


class NoFiles:
    """Readers that find nothing: generated paths ("/", ".") must not import this machine."""

    def scan(self, path: str) -> VaultScan:
        return VaultScan(os.path.abspath(path), "", (), ())

    def read(self, scan: VaultScan, path: str) -> NoteFile | SkippedFile:
        return SkippedFile(path, "not read in this test")

    def read_note(self, root: str, path: str) -> NoteFile | SkippedFile:
        return SkippedFile(path, "not read in this test")


class NoMaterial:
    def scan(self, path: str) -> MaterialScan:
        return MaterialScan(os.path.abspath(path), ())

    def read(self, root: str, path: str) -> MaterialFile | SkippedFile:
        return SkippedFile(path, "not read in this test")

    def locate(self, root: str, path: str) -> str | None:
        return None


def inert(services: Services) -> Services:
    """No file but the data folder's is read; no model is loaded (a hash embedder, a word
    overlap scorer): the run measures the API, not a cold start of MiniLM."""
    return replace(services, embedder=HashEmbedder(), passage_scorer=OverlapScorer(),
                   vault_reader=NoFiles(), material_reader=NoMaterial())


@pytest.mark.timeout(600)  # ~1,200 requests: minutes on a machine shared by many processes
def test_the_api_matches_its_openapi_document(tmp_path: Path) -> None:
    live = start_server(tmp_path / "data", script=SCRIPT, prepare=inert)
    try:
        # Load the model stack once (litellm's import), so no case is timed on a cold start.
        warm = httpx.post(f"{live.url}/api/settings/test", json={"role": "teacher"},
                          headers={"Authorization": f"Bearer {live.token}"}, timeout=120)
        assert warm.status_code == 200, warm.text
        result = subprocess.run(
            [str(SCHEMATHESIS), "run", f"{live.url}/api/openapi.json",
             "--header", f"Authorization: Bearer {live.token}",
             "--checks", "all", "--max-examples", str(EXAMPLES), "--seed", "19", "--no-shrink",
             "--phases", "examples,coverage,fuzzing", "--request-timeout", "30",
             "--max-response-time", "30", "--continue-on-failure"],
            cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
            env={**os.environ, "SCHEMATHESIS_HOOKS": "tests.support.schemathesis_hooks",
                 "NO_COLOR": "1"},
        )
    finally:
        live.stop()
    out = result.stdout
    assert result.returncode == 0, out[-20000:] + result.stderr[-3000:]
    selected = re.search(r"Selected: (\d+)/(\d+)", out)
    tested = re.search(r"Tested: (\d+)", out)
    assert selected and tested, out[-3000:]
    assert selected[1] == selected[2] == tested[1], out[-3000:]  # every operation ran
    assert int(tested[1]) >= 40  # the whole API, not a document that lost its routes
