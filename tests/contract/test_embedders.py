"""The ``Embedder`` port: the bundled MiniLM (offline, 384-d unit vectors), litellm embeddings
(BYOK, normalized), the settings switch between them, and the persistent vector cache."""

from __future__ import annotations

import math
import os
from types import SimpleNamespace

import pytest
from studyhall.adapters.embed.litellm_embedder import LitellmEmbedder
from studyhall.adapters.embed.minilm import MODEL_ID, MiniLMEmbedder
from studyhall.adapters.embed.select import SettingsEmbedder
from studyhall.adapters.fakes import InMemoryGraphStore, InMemorySecretStore, InMemorySettingsStore
from studyhall.adapters.store import JsonlGraphStore
from studyhall.core.contracts.settings import RoleModel, Settings
from studyhall.core.errors import ModelAuthError, ModelNetworkDisabled, ModelNotConfigured
from studyhall.core.library.upkeep.vector_cache import VectorCache

from tests.support.embedder import HashEmbedder


@pytest.fixture(scope="module")
def minilm():
    """Loaded once for the module: loading the model takes seconds."""
    return MiniLMEmbedder()


async def test_minilm_gives_384_d_unit_vectors_offline(minilm):
    texts = [
        "Mitochondria produce ATP.",
        "The powerhouse of the cell makes energy.",
        "Paris is the capital of France.",
    ]
    vectors = await minilm.embed(texts)
    assert minilm.model_id == MODEL_ID and minilm.loaded
    assert os.environ["HF_HUB_OFFLINE"] == "1" and os.environ["TRANSFORMERS_OFFLINE"] == "1"
    assert [len(v) for v in vectors] == [384, 384, 384]
    assert all(abs(math.sqrt(sum(x * x for x in v)) - 1.0) < 1e-4 for v in vectors)

    def cos(a, b):
        return sum(x * y for x, y in zip(a, b))

    assert cos(vectors[0], vectors[1]) > cos(vectors[0], vectors[2]) + 0.2
    assert len(await minilm.embed([])) == 0
    alone = (await minilm.embed(texts[:1]))[0]  # batch padding may move the last digits only
    assert max(abs(x - y) for x, y in zip(alone, vectors[0])) < 1e-5


def fake_aembedding(calls: list, dims: int = 3, fail: Exception | None = None):
    async def aembedding(**kwargs):
        calls.append(kwargs)
        if fail is not None:
            raise fail
        # Out of order on purpose: rows are matched by their index.
        rows = [
            {"index": i, "embedding": [float(i + 1)] + [0.0] * (dims - 2) + [1.0]}
            for i in range(len(kwargs["input"]))
        ]
        return SimpleNamespace(data=list(reversed(rows)))

    return aembedding


async def test_litellm_embeddings_are_normalized_in_order_with_the_saved_key():
    secrets = InMemorySecretStore()
    secrets.set("openai", "sk-test")
    calls: list = []
    embedder = LitellmEmbedder(
        RoleModel(model="openai/text-embedding-3-small"), secrets, aembedding=fake_aembedding(calls)
    )
    vectors = await embedder.embed(["a", "b"])
    assert embedder.model_id == "openai/text-embedding-3-small"
    assert [round(v[0], 4) for v in vectors] == [
        round(1 / math.sqrt(2), 4),
        round(2 / math.sqrt(5), 4),
    ]
    # float32 rows (what the cache and the index keep): unit length to float32 precision.
    assert all(abs(math.sqrt(sum(float(x) * x for x in v)) - 1) < 1e-6 for v in vectors)
    assert vectors.dtype == "float32" and vectors.shape == (2, 3)
    assert calls[0]["api_key"] == "sk-test" and calls[0]["input"] == ["a", "b"]


async def test_litellm_embedding_failures_are_clear():
    secrets = InMemorySecretStore()
    no_key = LitellmEmbedder(
        RoleModel(model="openai/text-embedding-3-small"), secrets, aembedding=fake_aembedding([])
    )
    with pytest.raises(ModelNotConfigured, match="No key for openai"):
        await no_key.embed(["a"])
    offline = LitellmEmbedder(
        RoleModel(model="openai/text-embedding-3-small"), secrets, allow_network=False
    )
    with pytest.raises(ModelNetworkDisabled, match="bundled local model"):
        await offline.embed(["a"])
    import litellm

    secrets.set("openai", "sk-bad")
    refused = LitellmEmbedder(
        RoleModel(model="openai/text-embedding-3-small"),
        secrets,
        aembedding=fake_aembedding(
            [],
            fail=litellm.AuthenticationError(
                message="bad key sk-bad", llm_provider="openai", model="text-embedding-3-small"
            ),
        ),
    )
    with pytest.raises(ModelAuthError) as caught:
        await refused.embed(["a"])
    assert "sk-bad" not in str(caught.value)


async def test_the_settings_pick_the_embedder_at_each_call():
    settings = InMemorySettingsStore()
    chooser = SettingsEmbedder(settings, InMemorySecretStore(), allow_network=False)
    assert chooser.model_id == MODEL_ID
    settings.save(Settings(embedding=RoleModel(model="openai/text-embedding-3-small")))
    assert chooser.model_id == "openai/text-embedding-3-small"
    with pytest.raises(ModelNetworkDisabled):
        await chooser.embed(["x"])


@pytest.mark.parametrize("store_kind", ["memory", "file"])
async def test_the_vector_cache_embeds_each_text_once_and_persists(tmp_path, store_kind):
    def store():
        return InMemoryGraphStore() if store_kind == "memory" else JsonlGraphStore(tmp_path / "g")

    graph = store()
    embedder = HashEmbedder()
    cache = VectorCache(embedder, graph, batch=2)
    first = await cache.vectors(["a", "bb", "a", "ccc"])
    # each text once, longest first, so a batch holds texts of about one length
    assert embedder.batches == [["ccc", "bb"], ["a"]]
    assert list(first[0]) == list(first[2])
    assert (cache.stats.hits, cache.stats.misses) == (0, 3)
    assert await cache.persist() and not await cache.persist()  # nothing new the second time
    reopened = graph if store_kind == "memory" else store()
    later = VectorCache(embedder, reopened)
    await later.ensure(["a", "bb", "dddd"])
    assert embedder.seen[-1:] == ["dddd"] and later.stats.hit_rate == pytest.approx(2 / 3)


async def test_two_caches_of_one_model_never_write_over_each_other(tmp_path):
    graph = JsonlGraphStore(tmp_path / "g")
    one, two = VectorCache(HashEmbedder(), graph), VectorCache(HashEmbedder(), graph)
    await one.ensure(["from one"])
    await two.ensure(["from two"])
    await one.persist()
    await two.persist()
    fresh = VectorCache(HashEmbedder(), JsonlGraphStore(tmp_path / "g"))
    assert fresh.get("from one") is not None and fresh.get("from two") is not None
