"""The tests' own doubles behave as their docstrings say: ``FunctionChatModel`` answers from its
function (lists, async iterators, coroutines, errors) and ``HashEmbedder`` is a fair embedder."""

from __future__ import annotations

import asyncio
import math
from collections.abc import AsyncIterator

import pytest
from studyhall.core.contracts.models import (
    FinishEvent,
    ModelEvent,
    ModelRequest,
    StreamedText,
    UsageEvent,
)
from studyhall.core.errors import ModelNotConfigured

from tests.support.chat_model import FunctionChatModel
from tests.support.chat_script import Replies, say, scripted, tool
from tests.support.embedder import HashEmbedder


def request(role: str = "teacher") -> ModelRequest:
    return ModelRequest(role=role, messages=({"role": "user", "content": "hi"},))  # type: ignore[arg-type]


async def collect(model: FunctionChatModel, role: str = "teacher") -> list[ModelEvent]:
    return [e async for e in model.stream(request(role))]


async def test_the_function_sees_each_request_and_its_events_stream_back() -> None:
    seen: list[str] = []

    def fn(req: ModelRequest) -> list[ModelEvent]:
        seen.append(req.role)
        return say("a", "b")

    model = FunctionChatModel(fn)
    events = await collect(model, "labeler")
    assert [e.text for e in events if isinstance(e, StreamedText)] == ["a", "b"]
    assert isinstance(events[-1], FinishEvent) and seen == ["labeler"]
    assert [r.role for r in model.requests] == ["labeler"] and model.calls("labeler") == 1


async def test_a_coroutine_or_an_async_iterator_may_answer_and_errors_surface_on_read() -> None:
    gate = asyncio.Event()

    async def waits(req: ModelRequest) -> list[ModelEvent]:
        await gate.wait()
        return say("late")

    async def drops(req: ModelRequest) -> AsyncIterator[ModelEvent]:
        yield StreamedText("half")
        raise ModelNotConfigured("gone", role=req.role)

    pending = asyncio.ensure_future(collect(FunctionChatModel(waits)))
    await asyncio.sleep(0.01)
    assert not pending.done()
    gate.set()
    assert [e.text for e in await pending if isinstance(e, StreamedText)] == ["late"]
    stream = FunctionChatModel(drops).stream(request())  # nothing raised until it is read
    assert await anext(stream) == StreamedText("half")
    with pytest.raises(ModelNotConfigured):
        await anext(stream)


async def test_replies_play_per_role_then_shared_and_run_out_clearly() -> None:
    replies = Replies(say("shared"), teacher=[{"k": 1}, "plain words", ValueError("boom")])
    model = FunctionChatModel(replies)
    assert "".join(e.text for e in await collect(model) if isinstance(e, StreamedText)) == '{"k": 1}'
    words = [e.text for e in await collect(model) if isinstance(e, StreamedText)]
    assert words == ["plain ", "words"]  # text streams in pieces
    with pytest.raises(ValueError, match="boom"):
        await collect(model)
    with pytest.raises(ModelNotConfigured, match="no scripted answer left for the teacher"):
        await collect(model)
    assert [e.type for e in await collect(model, "prober")][-2:] == ["usage", "finish"]
    with pytest.raises(ModelNotConfigured, match="no scripted answer for the prober") as info:
        await collect(scripted(), "prober")
    assert info.value.role == "prober"
    call = tool("quiz", {"q": 1}, "c1")
    events = await collect(scripted(say(calls=[call])))
    assert call in events and isinstance(events[-2], UsageEvent) and events[-1].reason == "tool_calls"


async def test_hash_vectors_are_unit_deterministic_and_closer_for_shared_words() -> None:
    embedder = HashEmbedder()
    a, b, c, empty = await embedder.embed(
        ["mitochondria make energy", "mitochondria make ATP energy", "paris is in france", "!?"]
    )
    assert all(abs(math.sqrt(sum(x * x for x in v)) - 1.0) < 1e-9 for v in (a, b, c, empty))
    assert (await HashEmbedder().embed(["mitochondria make energy"]))[0] == a

    def cos(u: tuple[float, ...], v: tuple[float, ...]) -> float:
        return sum(x * y for x, y in zip(u, v, strict=True))

    assert cos(a, b) > cos(a, c)
    await embedder.embed(["one more"])
    assert (embedder.calls, embedder.texts) == (2, 5)
    assert embedder.seen[-1] == "one more" and embedder.model_id == "test/hash-64"


async def test_a_gated_embedder_holds_each_call_until_released() -> None:
    embedder = HashEmbedder("test/other", gate=asyncio.Event())
    pending = asyncio.ensure_future(embedder.embed(["held"]))
    await asyncio.sleep(0.01)
    assert embedder.calls == 1 and not pending.done()  # counted on entry, answered on release
    assert embedder.gate is not None
    embedder.gate.set()
    assert len((await pending)[0]) == 64
