"""The app hands the GIL over quickly: the encoder's runner threads need it for a moment after
every run, and at CPython's 5 ms they lost a quarter of their speed beside merging."""

from __future__ import annotations

import pytest


def test_the_app_hands_the_gil_over_quickly(tmp_path, monkeypatch) -> None:
    import sys

    from studyhall.server.app import SWITCH_INTERVAL, build_runtime, build_services
    from studyhall.server.config import load_config

    monkeypatch.setenv("STUDYHALL_DATA_DIR", str(tmp_path))
    before = sys.getswitchinterval()
    try:
        build_runtime(build_services(load_config()))
        assert SWITCH_INTERVAL < 0.005
        assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL)
    finally:
        sys.setswitchinterval(before)
