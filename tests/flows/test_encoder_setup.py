"""The local search encoder is prepared when the app starts, in the background, as a run the
activity strip shows — not inside the learner's first import — and only once."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import replace

from studyhall.server.app import build_runtime, build_services
from studyhall.server.runtime.runtime import Runtime, started

from tests.support.embedder import HashEmbedder
from tests.support.server import make_config


def build_test_runtime(prepare, needed) -> Runtime:  # type: ignore[no-untyped-def]
    services = build_services(make_config())
    return build_runtime(replace(services, embedder=HashEmbedder(), prepare_encoder=prepare,
                                 encoder_needs_setup=needed))


async def test_the_app_start_prepares_the_encoder_once_and_the_strip_shows_it():
    release = threading.Event()
    calls: list[int] = []

    def prepare() -> None:
        calls.append(1)
        release.wait(10)

    ready = {"done": False}
    runtime = build_test_runtime(prepare, lambda: not ready["done"])
    async with started(runtime):
        for _ in range(100):
            running = runtime.workbench.activity()["running"]
            if running:
                break
            await asyncio.sleep(0.02)
        assert [(r["kind"], r["status"]) for r in running] == [("setup", "running")]
        assert "one time" in running[0]["label"]
        release.set()
        ready["done"] = True
        for _ in range(200):
            recent = runtime.workbench.activity()["recent"]
            if recent and recent[0]["status"] == "done":
                break
            await asyncio.sleep(0.02)
        assert recent[0]["run_id"] == "local-search-setup" and recent[0]["status"] == "done"
        await runtime.library.startup()  # a second start has nothing to do
    assert calls == [1]


async def test_a_failed_set_up_is_shown_in_words_and_nothing_else_breaks():
    def prepare() -> None:
        raise RuntimeError("The bundled MiniLM could not be prepared for ONNX Runtime (disk full).")

    runtime = build_test_runtime(prepare, lambda: True)
    async with started(runtime):
        for _ in range(200):
            recent = runtime.workbench.activity()["recent"]
            if recent:
                break
            await asyncio.sleep(0.02)
        assert recent[0]["status"] == "error" and "disk full" in recent[0]["error"]


async def test_nothing_is_shown_when_the_encoder_is_ready():
    runtime = build_test_runtime(lambda: None, lambda: False)
    async with started(runtime):
        await asyncio.sleep(0.05)
        snapshot = runtime.workbench.activity()
        assert snapshot["running"] == [] and snapshot["recent"] == []


def test_the_onnx_encoder_knows_whether_its_export_is_there(tmp_path):
    from studyhall.adapters.embed.onnx_export import export_path
    from studyhall.adapters.embed.onnx_minilm import OnnxMiniLMEmbedder, _loaded

    encoder = OnnxMiniLMEmbedder(tmp_path / "models")
    if _loaded:  # another test of this process loaded the model: nothing to prepare
        assert encoder.prepared
        return
    assert not encoder.prepared
    target = export_path(tmp_path / "models")
    target.parent.mkdir(parents=True)
    target.write_bytes(b"exported")
    assert encoder.prepared
