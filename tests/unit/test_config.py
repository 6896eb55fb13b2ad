"""Where data lives and what a launch is configured with."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from studyhall.server import config as config_module
from studyhall.server.config import load_config, resolve_data_dir


def test_env_var_wins(tmp_path):
    assert resolve_data_dir({"STUDYHALL_DATA_DIR": str(tmp_path)}) == tmp_path.resolve()


def test_source_checkout_uses_its_data_folder():
    root = Path(config_module.__file__).resolve().parents[2]
    assert resolve_data_dir({}) == root / "data"


def test_installed_copy_uses_the_platform_folder(monkeypatch):
    monkeypatch.setattr(config_module, "_checkout_root", lambda: None)
    path = resolve_data_dir({})
    assert path.name == "studyhall" and "data" not in path.parts[-2:-1]


def test_load_config_reads_env_and_overrides(tmp_path, monkeypatch):
    monkeypatch.setenv("STUDYHALL_SCRIPT", str(tmp_path / "script.json"))
    config = load_config(port=1234)
    assert config.data_dir == Path(os.environ["STUDYHALL_DATA_DIR"]).resolve()
    assert config.port == 1234 and config.host == "127.0.0.1"
    assert config.script_path == tmp_path / "script.json"
    assert config.testing is True
    assert config.origin == "http://127.0.0.1:1234"


def test_each_launch_gets_its_own_token_and_repr_hides_it():
    first, second = load_config(), load_config()
    assert first.token != second.token and len(first.token) >= 40
    assert first.token not in repr(first)


def test_no_origin_before_a_port_is_bound():
    with pytest.raises(ValueError):
        _ = load_config().origin
