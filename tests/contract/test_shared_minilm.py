"""One MiniLM per process: the notes embedder, the ask encoder and the late-interaction scorer
use the same model object, and every encode runs on the encoder's one worker thread (the
model's fast tokenizer refuses concurrent use from two threads: "Already borrowed")."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from studyhall.adapters.embed import minilm
from studyhall.adapters.search.late_interaction import MiniLMEncoder, MiniLMLateScorer
from studyhall.core.contracts.search import Chunk


class FakeTokenizer:
    def __call__(self, text: str, **_: Any) -> dict[str, list[int]]:
        return {"input_ids": list(range(len(text.split()) + 2))}

    def convert_ids_to_tokens(self, ids: Sequence[int]) -> list[str]:
        return ["[CLS]", *(f"w{i}" for i in ids[1:-1]), "[SEP]"]


class FakeModel:
    """Records the thread of every encode; a second encode in flight is the tokenizer's error."""

    max_seq_length = 256

    def __init__(self) -> None:
        self.tokenizer = FakeTokenizer()
        self.threads: list[str] = []
        self._busy = threading.Lock()

    def encode(self, texts: list[str], output_value: str | None = None, **_: Any) -> Any:
        if not self._busy.acquire(blocking=False):
            raise RuntimeError("Already borrowed")
        try:
            self.threads.append(threading.current_thread().name)
            threading.Event().wait(0.01)  # long enough for a racing caller to collide
            if output_value == "token_embeddings":
                return [np.ones((len(t.split()) + 2, 4), dtype=np.float32) for t in texts]
            return np.ones((len(texts), 4), dtype=np.float32) / 2.0
        finally:
            self._busy.release()


@pytest.fixture
def fake_model(monkeypatch: pytest.MonkeyPatch) -> FakeModel:
    model = FakeModel()
    monkeypatch.setattr(minilm, "_model", model)  # what shared_model() hands out
    return model


def chunk(n: int) -> Chunk:
    return Chunk(id=f"s:{n}", source_id="s", path="a.md", kind="note", title="A",
                 anchor=f"part-{n}", text=f"passage number {n} text")


async def test_the_ask_encoder_uses_the_one_shared_model(fake_model: FakeModel) -> None:
    assert MiniLMEncoder()._load() is fake_model is minilm.shared_model()


async def test_every_encode_of_the_shared_model_queues_on_one_thread(fake_model) -> None:
    encoder = MiniLMEncoder()
    scorer = MiniLMLateScorer(encoder)
    notes = minilm.MiniLMEmbedder()
    results = await asyncio.gather(
        notes.embed(["a node"]),
        encoder.embed(["a question"]),
        scorer.rerank("which passage", [chunk(1), chunk(2)]),
        notes.embed(["another node"]),
        scorer.rerank("another question", [chunk(3)]),
    )
    assert [len(r) for r in results] == [1, 1, 2, 1, 1]
    assert fake_model.threads and {t.split("_")[0] for t in fake_model.threads} == {"minilm"}
