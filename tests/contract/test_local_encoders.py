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


PASSAGES = [
    "The Normans were descended from Norse raiders who settled in northern France.",
    "Mitochondria are organelles that produce most of the cell's chemical energy as ATP.",
    "Paris has been the capital of France since the tenth century.",
]


@pytest.fixture(scope="module", params=["torch", "onnx"])
def token_encoder(request, models_dir):
    from studyhall.adapters.search.late_interaction import MiniLMEncoder

    return MiniLMEncoder() if request.param == "torch" else OnnxMiniLMEmbedder(models_dir)


async def test_each_backend_serves_the_late_interaction_reranker(token_encoder) -> None:
    from studyhall.adapters.embed.minilm import on_encoder_thread
    from studyhall.adapters.search.late_interaction import MiniLMLateScorer
    from studyhall.core.contracts.search import Chunk

    rows = await on_encoder_thread(token_encoder.tokens_sync, ["Where do ATP molecules come from?"])
    assert len(rows) == 1 and rows[0].dtype == np.float32 and rows[0].shape[1] == 384
    # Words only: no [CLS]/[SEP], no "?" — one unit row per remaining word piece.
    assert 5 <= len(rows[0]) <= 9 and np.allclose(np.linalg.norm(rows[0], axis=1), 1, atol=1e-4)
    chunks = [Chunk(id=f"s:{n}", source_id="s", path="a.md", kind="note", title="A",
                    anchor=f"p{n}", text=text) for n, text in enumerate(PASSAGES)]
    scored = await MiniLMLateScorer(token_encoder).rerank("Which organelle makes the energy?",
                                                          chunks)
    assert max(scored, key=lambda r: r.score).chunk_id == "s:1"


async def test_the_onnx_late_scores_agree_with_torch(models_dir) -> None:
    from studyhall.adapters.embed.minilm import on_encoder_thread
    from studyhall.adapters.search.late_interaction import MiniLMEncoder

    onnx = OnnxMiniLMEmbedder(models_dir)
    torch_rows = await on_encoder_thread(MiniLMEncoder().tokens_sync, PASSAGES)
    onnx_rows = await on_encoder_thread(onnx.tokens_sync, PASSAGES)
    for t, o in zip(torch_rows, onnx_rows):
        assert t.shape == o.shape  # the same word pieces kept
        assert float((t * o).sum(axis=1).mean()) > 0.95  # int8: close token by token
    long = " ".join(["word"] * 400)
    (cut,) = await on_encoder_thread(onnx.tokens_sync, [long])
    assert len(cut) == 254  # a passage is read to 256 word pieces, as torch reads it
    assert await on_encoder_thread(onnx.tokens_sync, []) == []


def test_the_app_reranks_on_the_onnx_encoder_when_it_embeds(monkeypatch, tmp_path) -> None:
    from studyhall.adapters.search.late_interaction import MiniLMEncoder
    from studyhall.server.app import build_services
    from studyhall.server.config import load_config

    monkeypatch.setenv(ENCODER_ENV, "onnx")
    services = build_services(load_config(data_dir=tmp_path))
    assert isinstance(services.passage_scorer.encoder, OnnxMiniLMEmbedder)  # torch never loads
    monkeypatch.setenv(ENCODER_ENV, "torch")
    services = build_services(load_config(data_dir=tmp_path))
    assert isinstance(services.passage_scorer.encoder, MiniLMEncoder)
