"""Model ports: the chat model every role talks to, embedders, passage rerankers, transcribers."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Protocol

from studyhall.core.contracts.material import MaterialFile, SkippedFile
from studyhall.core.contracts.model_capabilities import ModelCapabilities
from studyhall.core.contracts.models import (
    ModelEvent,
    ModelRequest,
)
from studyhall.core.contracts.search import Chunk, Matrix, Reranked


class ChatModel(Protocol):
    def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        """Stream one completion. Raises ``core.errors.ModelError`` subclasses on failure.

        A successful stream is: ``StreamedText`` pieces as they arrive, then every complete
        ``ToolCallEvent`` (in the order the model made them), then exactly one ``UsageEvent``
        (unknown fields are None) and exactly one ``FinishEvent``. Failures before the first
        event are retried inside the adapter when retrying is safe; after it they surface.
        With ``response_schema`` set, the JSON answer arrives as text deltas.
        """
        ...


class Embedder(Protocol):
    @property
    def model_id(self) -> str: ...

    async def embed(self, texts: Sequence[str]) -> Matrix:
        """One unit-length vector per text, same order: the rows of one float32 matrix."""
        ...


class Reranker(Protocol):
    @property
    def grades(self) -> bool:
        """True when this reranker grades (a model); False when it only scores (local)."""
        ...

    async def rerank(self, query: str, chunks: Sequence[Chunk]) -> list[Reranked]:
        """One judgement per chunk, same order."""
        ...


class Transcriber(Protocol):
    async def transcribe(self, root: str, path: str) -> MaterialFile | SkippedFile:
        """Speech to a timed transcript for the audio/video file ``root/path`` (root-relative),
        cached by the file's content hash so the same bytes are never sent twice. Raises
        ``core.errors.ModelError`` subclasses when the model cannot answer."""
        ...


class CapabilityProbe(Protocol):
    async def capabilities(
        self, model_id: str, api_base: str | None, *, check: bool = False
    ) -> ModelCapabilities:
        """What ``model_id`` at ``api_base`` can do: asked of the server once, then cached per
        address and model; ``UNKNOWN`` fields where the server does not say. ``check`` asks
        the server again now, with one tiny test call where its description does not say
        whether the model calls tools (Settings asks; a turn's lookup never does)."""
        ...

    async def forget_all_but(self, keep: set[tuple[str, str | None]]) -> None:
        """Drop the cached answers for every ``(model_id, api_base)`` not in ``keep``."""
        ...
