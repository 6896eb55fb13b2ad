"""With no usable model for a role — no script, no key for that model's provider, no local
server — the notes import neither calls the model nor imports litellm (≈5 s, only to learn that
no key is saved): notes go through the model-free extractor and clusters get term labels.
A key for another provider does not count; one for the right provider does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from studyhall.adapters.fakes import InMemorySecretStore, InMemorySettingsStore
from studyhall.core.contracts.settings import RoleModel, Settings
from studyhall.server.app import build_services
from studyhall.server.config import load_config
from studyhall.server.runtime.classroom.model_ready import no_model_reason

from tests.support.notes import add_twin_notes, make_vault

ROOT = Path(__file__).resolve().parents[2]
CHILD = """
import asyncio, dataclasses, json, sys
from studyhall.server.app import build_runtime, build_services
from studyhall.server.config import load_config
from tests.support.embedder import HashEmbedder

services = build_services(load_config())
for name in sys.argv[2:]:
    services.secret_store.set(name, "sk-test-0123456789abcdef")
runtime = build_runtime(dataclasses.replace(services, embedder=HashEmbedder()))
report = asyncio.run(runtime.library.import_here(sys.argv[1]))
print(json.dumps({"litellm": "litellm" in sys.modules, "report": report.to_dict()}))
"""


def run_child(vault: Path, *keys: str, env: dict[str, str] | None = None) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(vault), *keys], check=False, cwd=ROOT,
        capture_output=True, text=True, timeout=120, env={**os.environ, **(env or {})},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    ("keys", "env"),
    [((), {}), (("anthropic",), {}), ((), {"ANTHROPIC_API_KEY": "sk-ant-test-0123456789"})],
    ids=["no-key", "saved-key-for-another-provider", "env-key-for-another-provider"],
)
def test_a_no_model_import_never_imports_litellm_and_labels_by_terms(
    tmp_path: Path, keys: tuple[str, ...], env: dict[str, str]
) -> None:
    vault = add_twin_notes(make_vault(tmp_path / "Vault", notes=12))  # a cluster to label
    got = run_child(vault, *keys, env=env)
    report = got["report"]
    assert got["litellm"] is False
    assert report["extractor"] == "structural" and "openai" in report["extractor_note"]
    # The summary a first import shows: what happened to the notes, not the pipeline's names.
    assert "headings and links" in report["extractor_note"]
    assert "extractor" not in report["extractor_note"]
    upkeep = report["upkeep"]
    assert upkeep["clusters"] >= 1 and upkeep["labeled_by_model"] == 0
    assert upkeep["labeled_by_terms"] == upkeep["clusters"]


def test_one_rule_says_which_roles_have_a_usable_model(monkeypatch) -> None:
    for name in [k for k in os.environ if k.endswith("_API_KEY")]:
        monkeypatch.delenv(name)
    models = {"labeler": RoleModel(model="openai/gpt-4.1-mini"),
              "extractor": RoleModel(model="ollama/llama3.2"),
              "auditor": RoleModel(model="openai/gpt-4.1-mini", api_base="http://10.0.0.2:8000"),
              "answerer": RoleModel(model="together_ai/meta-llama/Llama-3-8b")}
    services = replace(build_services(load_config()), secret_store=InMemorySecretStore(),
                       settings_store=InMemorySettingsStore(Settings(models=models)))

    assert "openai" in (no_model_reason(services, "labeler") or "")
    assert no_model_reason(services, "extractor") is None  # a local server needs no key
    assert no_model_reason(services, "auditor") is None  # a custom server may need none
    services.secret_store.set("anthropic", "sk-ant-0123456789")
    assert no_model_reason(services, "labeler") is not None  # the wrong provider's key
    services.secret_store.set("openai", "sk-0123456789abcdef")
    assert no_model_reason(services, "labeler") is None
    assert no_model_reason(services, "answerer") is not None
    monkeypatch.setenv("TOGETHERAI_API_KEY", "tg-0123456789")  # litellm's name for it
    assert no_model_reason(services, "answerer") is None
