"""The one-time ONNX export of the bundled MiniLM runs in a child process: a quit kills it
instead of waiting ~10 s inside torch, an orphaned export exits on its own, and neither leaves a
file behind (the next use exports again)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from studyhall.adapters.embed import onnx_export, onnx_minilm
from studyhall.adapters.embed.minilm import EmbedderUnavailable
from studyhall.adapters.embed.onnx_export import ExportControl, ExportStopped, exported_model
from studyhall.server.app import build_runtime, build_services
from studyhall.server.config import load_config
from studyhall.server.runtime.runtime import started

pytest.importorskip("onnxruntime")


def _wait_for_child(control: ExportControl, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not control.running:
        assert time.monotonic() < deadline, "the export never started"
        time.sleep(0.02)


def test_stopping_kills_the_export_and_leaves_no_file(tmp_path: Path) -> None:
    control = ExportControl()
    outcome: list[BaseException | Path] = []

    def export() -> None:
        try:
            outcome.append(exported_model(tmp_path / "models", control=control))
        except BaseException as e:  # noqa: BLE001 - the test inspects it
            outcome.append(e)

    worker = threading.Thread(target=export)
    worker.start()
    _wait_for_child(control)
    time.sleep(0.5)  # well inside the import of torch
    began = time.monotonic()
    assert control.stop() == 1
    worker.join(timeout=5)
    assert not worker.is_alive() and time.monotonic() - began < 3
    assert isinstance(outcome[0], ExportStopped)
    assert "prepared again" in str(outcome[0])
    assert list((tmp_path / "models").iterdir()) == []  # no model, no temp file
    assert control.running == 0 and control.stop() == 0


def test_an_export_asked_for_after_the_stop_never_starts(tmp_path: Path) -> None:
    control = ExportControl()
    control.stop()  # the app stopped just before its encoder asked for the model
    with pytest.raises(ExportStopped):
        exported_model(tmp_path / "models", control=control)
    assert control.running == 0 and not any((tmp_path / "models").iterdir())


def test_an_orphaned_export_exits_on_its_own(tmp_path: Path) -> None:
    target = tmp_path / "model.onnx"
    child = subprocess.Popen(
        [sys.executable, "-m", "studyhall.adapters.embed.onnx_export",
         str(onnx_export.bundled_model_dir()), str(target)],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    assert child.stdin is not None
    child.stdin.close()  # what the OS does when the app dies
    assert child.wait(timeout=10) == 3
    assert list(tmp_path.iterdir()) == []


async def test_the_app_stops_within_its_bound_while_the_model_is_exported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STUDYHALL_ENCODER", "onnx")
    # Not loaded yet in this process (another test may have loaded it): the export runs.
    monkeypatch.setattr(onnx_minilm, "_loaded", {})
    services = build_services(load_config(data_dir=tmp_path / "data"))
    runtime = build_runtime(services)
    local = services.embedder._local  # type: ignore[attr-defined]
    async with started(runtime):
        embedding = asyncio.ensure_future(services.embedder.embed(["a first search"]))
        await asyncio.to_thread(_wait_for_child, local.exports)
        began = time.monotonic()
    assert time.monotonic() - began < 3
    with pytest.raises(ExportStopped):
        await embedding
    assert not list((tmp_path / "data" / "models").glob("*"))
    with pytest.raises(ExportStopped):  # a stopped app's encoder starts no export
        await services.embedder.embed(["after the quit"])


def test_a_failed_export_says_why_and_leaves_no_file(tmp_path: Path) -> None:
    broken = tmp_path / "weights"  # weights with no config: transformers cannot build the model
    broken.mkdir()
    (broken / "model.safetensors").write_bytes(b"\0" * 4096)
    with pytest.raises(EmbedderUnavailable) as raised:
        exported_model(tmp_path / "models", broken)
    message = str(raised.value)
    assert not isinstance(raised.value, ExportStopped)
    assert "could not be exported" in message and "STUDYHALL_ENCODER=torch" in message
    assert "exit status" not in message  # the child's own last line says what went wrong
    assert list((tmp_path / "models").iterdir()) == []
