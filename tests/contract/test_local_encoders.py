"""The bundled MiniLM's two backends keep one ``Embedder`` contract: torch (sentence-transformers)
and ONNX Runtime with int8 weights exported once from the bundled weights into the data folder.
Both give one float32 matrix of 384-d unit rows, offline, and agree with each other."""

from __future__ import annotations

import os

import numpy as np
import pytest
from studyhall.adapters.embed import onnx_export
from studyhall.adapters.embed.minilm import MODEL_ID, MiniLMEmbedder
from studyhall.adapters.embed.onnx_minilm import ONNX_MODEL_ID, OnnxMiniLMEmbedder
from studyhall.adapters.embed.select import ENCODER_ENV, local_embedder

pytest.importorskip("onnxruntime")

TEXTS = [
    "Mitochondria produce ATP.",
    "The powerhouse of the cell makes energy.",
    "Paris is the capital of France.",
    "## Settings\n- Toggle the sync option to show the pane in the sidebar.\n```js\nx()\n```",
]


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory: pytest.TempPathFactory):
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="module", params=["torch", "onnx"])
def encoder(request, models_dir):
    return MiniLMEmbedder() if request.param == "torch" else OnnxMiniLMEmbedder(models_dir)


async def test_each_backend_gives_one_matrix_of_unit_rows_offline(encoder) -> None:
    vectors = await encoder.embed(TEXTS)
    assert isinstance(vectors, np.ndarray)
    assert vectors.dtype == np.float32 and vectors.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert os.environ["HF_HUB_OFFLINE"] == "1"
    assert encoder.loaded
    assert float(vectors[0] @ vectors[1]) > float(vectors[0] @ vectors[2]) + 0.2
    empty = await encoder.embed([])
    assert empty.shape == (0, 384)
    alone = (await encoder.embed(TEXTS[:1]))[0]
    if encoder.backend == "torch":  # padding in a batch moves the last digits only
        assert np.abs(alone - vectors[0]).max() < 1e-5
    else:  # int8 activations are scaled per batch: a text's vector moves a little with its batch
        assert float(alone @ vectors[0]) > 0.99


async def test_the_onnx_backend_agrees_with_torch_under_its_own_model_id(models_dir) -> None:
    torch_rows = await MiniLMEmbedder().embed(TEXTS)
    onnx = OnnxMiniLMEmbedder(models_dir)
    onnx_rows = await onnx.embed(TEXTS)
    assert (onnx_rows * torch_rows).sum(axis=1).min() > 0.97  # int8 weights: close, not equal
    # Different numbers: a model id of its own, so the cache and the index never mix them.
    assert onnx.model_id == ONNX_MODEL_ID != MODEL_ID


async def test_the_export_is_made_once_and_reused(models_dir) -> None:
    first = onnx_export.exported_model(models_dir)
    stamp = first.stat().st_mtime_ns
    assert onnx_export.exported_model(models_dir) == first and first.stat().st_mtime_ns == stamp
    assert [p.name for p in models_dir.iterdir()] == [first.name]  # no temp files left


def test_the_backend_is_chosen_by_the_environment(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(ENCODER_ENV, "torch")
    assert isinstance(local_embedder(tmp_path), MiniLMEmbedder)
    monkeypatch.setenv(ENCODER_ENV, "onnx")
    assert isinstance(local_embedder(tmp_path), OnnxMiniLMEmbedder)
    monkeypatch.delenv(ENCODER_ENV)
    assert isinstance(local_embedder(tmp_path), OnnxMiniLMEmbedder)  # the default when installed
    assert isinstance(local_embedder(None), MiniLMEmbedder)  # no folder for the export
    monkeypatch.setenv(ENCODER_ENV, "gpu")
    assert isinstance(local_embedder(tmp_path), OnnxMiniLMEmbedder)  # unknown: the default
