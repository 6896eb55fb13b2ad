"""An Ask answer is kept while it streams, as a session's turn is: the question and its
passages are on disk before the passages go out, the answer every few hundred characters,
marked incomplete (what a kill -9 would leave reads as cut off); the end writes it whole — a
normal finish complete, the model's error or Stop cut off, keeping the words already sent."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from studyhall.adapters.store import JsonAskStore
from studyhall.core.contracts.asks import CUT_OFF, STOPPED, AskThread
from studyhall.core.contracts.models import ModelEvent, ModelRequest, StreamedText
from studyhall.core.errors import ModelStreamCut
from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.chat_model import FunctionChatModel
from tests.support.course import OverlapScorer, vtt
from tests.support.embedder import HashEmbedder
from tests.support.session_api import PORT, parse_sse, scripted_app, write_script

LECTURE = [(0, 6, "Mark and sweep marks every object reachable from the roots."),
           (7, 13, "The sweep phase frees every unmarked object."),
           (100, 106, "Reference counting cannot reclaim cycles of objects.")]
GRADES = {"json": {"grades": [{"n": 1, "grade": "answers"}, {"n": 2, "grade": "related"}]}}
THREAD = "ask_0123456789abcdef"
QUESTION = {"question": "What does mark and sweep mark?", "thread_id": THREAD}


class Answerer:
    """The answerer role streams 100-character pieces and holds after ``hold_after`` of them
    until released; then ends (or fails, with ``fail``). Other roles use the script."""

    def __init__(self, inner: Any, hold_after: int = 4, *, fail: bool = False) -> None:
        self.inner, self.hold_after, self.fail = inner, hold_after, fail
        self.held, self.release = asyncio.Event(), asyncio.Event()

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        if request.role != "answerer":
            async for event in self.inner.stream(request):
                yield event
            return
        for _ in range(self.hold_after):
            yield StreamedText(text="y" * 100)
        self.held.set()
        await self.release.wait()
        if self.fail:
            raise ModelStreamCut("The answer broke off: the provider closed the stream.",
                                 role="answerer")
        yield StreamedText(text=" [1].")


def _app(tmp_path: Path, answerer_for):  # type: ignore[no-untyped-def]
    (tmp_path / "course").mkdir()
    (tmp_path / "course" / "gc.vtt").write_text(vtt(LECTURE))
    path = write_script(tmp_path / "script.json", {"reranker": [GRADES]})
    services = build_services(load_config(port=PORT, script_path=path))
    answerer = answerer_for(services.chat_model)
    services = replace(services, embedder=HashEmbedder(), passage_scorer=OverlapScorer(),
                       chat_model=FunctionChatModel(answerer.stream))
    return services, answerer, scripted_app(path, services)


def _on_disk(services) -> AskThread:  # type: ignore[no-untyped-def]
    """What a crash now would leave: read straight from the file, by a fresh store."""
    thread = JsonAskStore(services.config.data_dir / "asks").get(THREAD)
    assert thread is not None, "the conversation is not on disk"
    return thread


async def test_an_answer_is_on_disk_while_it_streams_then_complete(tmp_path: Path) -> None:
    services, answerer, app = _app(tmp_path, Answerer)
    async with app as (api, runtime):
        await runtime.library.index_material(str(tmp_path / "course"))
        asking = asyncio.create_task(api.http.post("/api/ask", json=QUESTION))
        await asyncio.wait_for(answerer.held.wait(), 30)

        (x,) = _on_disk(services).exchanges
        assert x.question == QUESTION["question"] and x.case == "MATCH"
        assert x.sources and x.sources[0]["link"].startswith("gc.vtt#t=")
        assert x.answer == "y" * 300  # the 300-character checkpoint; the 4th piece is newer
        assert (x.complete, x.cut_off, x.answered, x.reason) == (False, True, False, CUT_OFF)
        shown = (await api.http.get(f"/api/asks/{THREAD}")).json()["exchanges"][0]
        assert shown["complete"] is False and shown["cut_off"] is True  # the API says so too

        answerer.release.set()
        events = parse_sse((await asyncio.wait_for(asking, 30)).text)
        assert events[-1][0] == "finish"
        (x,) = _on_disk(services).exchanges
        assert x.answer == "y" * 400 + " [1]."
        assert (x.complete, x.cut_off, x.answered, x.reason) == (True, False, True, None)


async def test_the_models_error_mid_answer_keeps_the_words_sent_marked_cut_off(tmp_path: Path) -> None:
    services, answerer, app = _app(tmp_path, lambda inner: Answerer(inner, fail=True))
    async with app as (api, runtime):
        await runtime.library.index_material(str(tmp_path / "course"))
        answerer.release.set()
        events = parse_sse((await api.http.post("/api/ask", json=QUESTION)).text)
        assert events[-1][0] == "error"
        (x,) = _on_disk(services).exchanges
        assert x.answer == "y" * 400 and x.sources
        assert (x.complete, x.cut_off, x.answered) == (True, True, False)
        assert "broke off" in (x.reason or "")


async def test_stop_mid_answer_keeps_the_words_sent_marked_cut_off(tmp_path: Path) -> None:
    services, answerer, app = _app(tmp_path, Answerer)
    async with app as (api, runtime):
        await runtime.library.index_material(str(tmp_path / "course"))
        asking = asyncio.create_task(api.http.post("/api/ask", json=QUESTION))
        await asyncio.wait_for(answerer.held.wait(), 30)
        asking.cancel()  # the window's Stop: the request goes away mid-stream
        await asyncio.gather(asking, return_exceptions=True)
        for _ in range(200):  # the app notices the closed request on its own loop turn
            if _on_disk(services).exchanges[0].complete:
                break
            await asyncio.sleep(0.05)
        (x,) = _on_disk(services).exchanges
        assert x.answer == "y" * 400 and x.sources
        assert (x.complete, x.cut_off, x.reason) == (True, True, STOPPED)
