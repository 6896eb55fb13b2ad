"""Importing a subfolder of a vault: a note has ONE source id, the same in the sources index
(``studyhall sources --json``) and in the ask index (``/api/ask`` ``sources[].source_id``), so
deleting the note and importing the subfolder again takes it out of both."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.course import OverlapScorer
from tests.support.embedder import HashEmbedder
from tests.support.notes import make_vault, write
from tests.support.server import child_env
from tests.support.session_api import Api, parse_sse, scripted_app

ZEBRAS, LIONS = "zoo/Zebras.md", "zoo/Lions.md"


def _sources_json() -> dict[str, dict[str, Any]]:
    """What the user sees: ``studyhall sources --json`` over this test's data dir."""
    done = subprocess.run(
        [sys.executable, "-m", "studyhall", "sources", "--json"],
        env=child_env(Path(os.environ["STUDYHALL_DATA_DIR"])),
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    return {s["path"]: s for s in json.loads(done.stdout)}


async def _cited(api: Api, question: str) -> dict[str, str]:
    """path -> source_id of every passage ``/api/ask`` lists for the question."""
    r = await api.http.post("/api/ask", json={"question": question})
    assert r.status_code == 200, r.text
    name, data = parse_sse(r.text)[0]
    assert name == "sources"
    return {s["path"]: s["source_id"] for s in data["sources"]}


async def test_a_subfolder_import_names_each_note_once(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "Vault", notes=3)
    write(vault, ZEBRAS, "# Zebras\n\nZebras have stripes that confuse biting flies.\n")
    write(vault, LIONS, "# Lions\n\nLions hunt in prides across the savanna at night.\n")
    services = replace(build_services(load_config()),  # fast stand-ins for MiniLM
                       embedder=HashEmbedder(), passage_scorer=OverlapScorer())
    async with scripted_app(None, services) as (api, runtime):
        index = services.search_index
        assert index is not None

        report = await runtime.library.import_here(str(vault / "zoo"))
        material = report.to_dict()["material"]
        assert report.target == "zoo" and material is not None and material["imported"] == 2
        listed = _sources_json()
        assert set(listed) == {ZEBRAS, LIONS}  # notes outside the subfolder were not asked for
        zebra, lion = listed[ZEBRAS]["id"], listed[LIONS]["id"]
        assert index.chunks(zebra) and index.chunks(lion)
        assert (await _cited(api, "Why do zebras have stripes?")).get(ZEBRAS) == zebra
        assert (await _cited(api, "Why do lions hunt in prides across the savanna?")).get(LIONS) == lion

        (vault / ZEBRAS).unlink()
        report = await runtime.library.import_here(str(vault / "zoo"))
        material = report.to_dict()["material"]
        assert report.deleted == [ZEBRAS]
        assert material is not None and material["removed"] == 1
        listed = _sources_json()
        assert listed[ZEBRAS]["status"] == "deleted" and listed[LIONS]["status"] == "unchanged"
        assert index.chunks(zebra) == [] and index.chunks(lion)
        assert ZEBRAS not in await _cited(api, "Why do zebras have stripes?")

        # The whole vault afterwards: the same ids, nothing new to take out.
        material = (await runtime.library.import_here(str(vault))).to_dict()["material"]
        assert material is not None and material["removed"] == 0
        listed = _sources_json()
        assert listed[LIONS]["id"] == lion and listed[LIONS]["status"] == "unchanged"
        assert (await _cited(api, "Why do lions hunt in prides across the savanna?")).get(LIONS) == lion
