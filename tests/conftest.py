"""Test-wide guards: no network, no real model calls, every test in its own data dir."""

from __future__ import annotations

import os

import pytest

# Set before anything imports litellm or Qt.
os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
os.environ["STUDYHALL_TESTING"] = "1"  # the litellm adapter refuses real calls while set
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QTWEBENGINE_CHROMIUM_FLAGS", "--no-sandbox")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Every test gets a fresh STUDYHALL_DATA_DIR and no key from the environment."""
    data = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("STUDYHALL_DATA_DIR", str(data))
    monkeypatch.delenv("STUDYHALL_SCRIPT", raising=False)
    yield data
