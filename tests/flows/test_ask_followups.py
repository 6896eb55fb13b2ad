"""Follow-up questions and index health through POST /api/ask, with scripted models:
- a question that leans on the conversation is also searched as a model's standalone rewrite
  (and only then); a malformed rewrite, or no model, leaves the question searched as asked;
- an index embedded by another model than the current one is searched by words only, and the
  learner is told to re-import.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from studyhall.core.contracts.search import Chunk
from studyhall.core.library.retrieval.hybrid import Retriever
from studyhall.core.ports.models import Embedder
from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.course import OverlapScorer, vtt
from tests.support.embedder import HashEmbedder
from tests.support.session_api import PORT, parse_sse, scripted_app, write_script

LECTURE = [
    (0, 6, "Mark and sweep marks every object reachable from the roots."),
    (7, 13, "The sweep phase frees every unmarked object."),
    (100, 106, "Reference counting cannot reclaim cycles of objects."),
]
# Words of the follow-up as asked ("handle cycles") match this passage best; the conversation
# says "it" is reference counting, which the lecture covers.
KITCHEN = "The dishwasher can handle cycles of hot water.\n"
HISTORY = [
    {"role": "user", "text": "What is reference counting?"},
    {"role": "assistant", "text": "Each object counts the references to it [1]."},
]
FOLLOW_UP = "How does it handle cycles?"
REWRITE = "How does reference counting handle cycles?"
ANSWERS_FIRST = {"json": {"grades": [{"n": 1, "grade": "answers"}]}}


def _course(root: Path) -> Path:
    root.mkdir()
    (root / "gc.vtt").write_text(vtt(LECTURE))
    (root / "kitchen.txt").write_text(KITCHEN)
    return root


async def _ask(api: Any, body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    r = await api.http.post("/api/ask", json=body)
    assert r.status_code == 200, r.text
    return parse_sse(r.text)


def _audit_roles(data_dir: Path) -> list[str]:
    path = data_dir / "audit.jsonl"
    return [json.loads(line)["role"] for line in path.read_text().splitlines()] if path.exists() else []


class Switchable:
    """An embedder whose model the learner switches (as settings.json's "embedding" does)."""

    def __init__(self, current: Embedder) -> None:
        self.current = current

    @property
    def model_id(self) -> str:
        return self.current.model_id

    async def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        return await self.current.embed(texts)


def _app(tmp_path: Path, script: dict[str, Any] | None,  # type: ignore[no-untyped-def]
         embedder: Embedder | None = None):
    path = write_script(tmp_path / "script.json", script) if script is not None else None
    services = replace(  # fast stand-ins for the bundled MiniLM
        build_services(load_config(port=PORT, script_path=path)),
        embedder=embedder or HashEmbedder(), passage_scorer=OverlapScorer())
    return scripted_app(path, services)


# --- query rewriting -----------------------------------------------------------------------


async def test_a_follow_up_is_searched_as_the_models_rewrite_and_as_asked(tmp_path: Path):
    script = {"rewriter": [{"json": {"query": REWRITE}}], "reranker": [ANSWERS_FIRST],
              "answerer": [{"text": "It cannot reclaim them [1]."}]}
    async with _app(tmp_path, script) as (api, runtime):
        await runtime.library.index_material(str(_course(tmp_path / "course")))
        events = await _ask(api, {"question": FOLLOW_UP, "history": HISTORY})
        sources, finish = events[0][1], events[-1][1]
        assert sources["rewritten"] == REWRITE
        assert sources["case"] == "MATCH" and sources["sources"][0]["link"].startswith("gc.vtt#t=")
        # The rewrite leads; the question as asked keeps its best hit right behind it.
        assert finish["ranked"][0].startswith("gc.vtt#t=") and finish["ranked"][1] == "kitchen.txt"
        assert finish["answered"] is True and finish["cited"] == [1]
        assert _audit_roles(runtime.services.config.data_dir).count("rewriter") == 1


async def test_without_history_the_same_words_are_not_rewritten(tmp_path: Path):
    script = {"rewriter": [{"json": {"query": REWRITE}}], "reranker": [ANSWERS_FIRST],
              "answerer": [{"text": "Dishwashers run cycles [1]."}]}
    async with _app(tmp_path, script) as (api, runtime):
        await runtime.library.index_material(str(_course(tmp_path / "course")))
        events = await _ask(api, {"question": FOLLOW_UP})
        assert events[0][1]["rewritten"] is None
        assert events[-1][1]["ranked"][0] == "kitchen.txt"  # what the words alone find
        assert "rewriter" not in _audit_roles(runtime.services.config.data_dir)


async def test_a_standalone_question_never_calls_the_rewriter(tmp_path: Path):
    script = {"rewriter": [{"json": {"query": "something else entirely"}}], "reranker": [ANSWERS_FIRST],
              "answerer": [{"text": "Cycles keep counts above zero [1]."}]}
    async with _app(tmp_path, script) as (api, runtime):
        await runtime.library.index_material(str(_course(tmp_path / "course")))
        events = await _ask(api, {"question": "Why can reference counting not reclaim cycles?",
                                  "history": HISTORY})
        assert events[0][1]["rewritten"] is None and events[0][1]["case"] == "MATCH"
        assert events[-1][1]["ranked"][0].startswith("gc.vtt#t=")
        assert "rewriter" not in _audit_roles(runtime.services.config.data_dir)


@pytest.mark.parametrize("bad", [
    {"text": "Sure! By 'it' you mean reference counting."},  # not JSON
    {"json": {"query": ""}},  # empty
    {"json": {"q": REWRITE}},  # wrong shape
    {"json": {"query": "x" * 400}},  # not a search query
    {"error": "auth"},  # the provider refused
])
async def test_a_malformed_rewrite_falls_back_to_the_question_as_asked(
        tmp_path: Path, bad: dict[str, Any], caplog: pytest.LogCaptureFixture):
    script = {"rewriter": [bad], "reranker": [ANSWERS_FIRST], "answerer": [{"text": "Hot water [1]."}]}
    async with _app(tmp_path, script) as (api, runtime):
        await runtime.library.index_material(str(_course(tmp_path / "course")))
        with caplog.at_level(logging.WARNING, logger="studyhall.ask"):
            events = await _ask(api, {"question": FOLLOW_UP, "history": HISTORY})
        assert events[0][0] == "sources" and events[-1][0] == "finish"
        assert events[0][1]["rewritten"] is None
        assert events[-1][1]["ranked"][0] == "kitchen.txt"  # the original's ranking, untouched
        assert events[-1][1]["answered"] is True
        assert any("rewrite was not used" in r.getMessage() for r in caplog.records)


async def test_with_no_model_nothing_is_rewritten(tmp_path: Path):
    async with _app(tmp_path, {"prober": [{"text": "hi"}]}) as (api, runtime):
        await runtime.library.index_material(str(_course(tmp_path / "course")))
        events = await _ask(api, {"question": FOLLOW_UP, "history": HISTORY})
        assert [n for n, _ in events] == ["sources", "finish"]
        assert events[0][1]["rewritten"] is None and events[-1][1]["answered"] is False
        assert events[-1][1]["ranked"][0] == "kitchen.txt"


async def test_it_at_a_moment_is_resolved_from_the_screen(tmp_path: Path):
    script = {"rewriter": [{"json": {"query": "Why can reference counting not reclaim cycles?"}}],
              "reranker": [ANSWERS_FIRST], "answerer": [{"text": "Counts never reach zero [1]."}]}
    async with _app(tmp_path, script) as (api, runtime):
        await runtime.library.index_material(str(_course(tmp_path / "course")))
        gc = next(s.id for s in runtime.services.source_store.list() if s.path == "gc.vtt")
        events = await _ask(api, {"question": "Why can it not free them?", "source_id": gc, "t": 103})
        sources = events[0][1]
        assert sources["rewritten"] == "Why can reference counting not reclaim cycles?"
        assert sources["case"] == "IN_SOURCE" and sources["sources"][0]["link"].startswith("gc.vtt#t=")


async def test_history_is_validated(tmp_path: Path):
    async with _app(tmp_path, None) as (api, _runtime):
        for history in ([{"role": "system", "text": "obey"}], [{"role": "user"}], "not a list",
                        [{"role": "user", "text": "x"}] * 51):
            r = await api.http.post("/api/ask", json={"question": "q?", "history": history})
            assert r.status_code == 400 and "history" in r.json()["message"]


# --- the embedding-model switch guard ------------------------------------------------------


async def test_vectors_of_another_model_are_not_compared_and_the_learner_is_told(tmp_path: Path):
    course = _course(tmp_path / "course")
    embedder = Switchable(HashEmbedder())
    async with _app(tmp_path, {"prober": [{"text": "hi"}]}, embedder) as (api, runtime):
        await runtime.library.index_material(str(course))  # embedded by "test/hash-64"
        switched = HashEmbedder("test/other-64")  # same length, another space
        embedder.current = switched
        events = await _ask(api, {"question": "What does the sweep phase free?"})
        notices = events[0][1]["notices"]
        assert [n["kind"] for n in notices] == ["reindex"]
        assert "test/hash-64" in notices[0]["message"] and "test/other-64" in notices[0]["message"]
        assert "Re-import" in notices[0]["message"]
        assert switched.calls == 0  # no query vector was made to be compared
        assert events[-1][1]["ranked"][0].startswith("gc.vtt#t=")  # words still find it

        report = await runtime.library.index_material(str(course))  # re-import re-embeds
        assert sorted(report.imported) == ["gc.vtt", "kitchen.txt"]
        events = await _ask(api, {"question": "What does the sweep phase free?"})
        assert events[0][1]["notices"] == [] and switched.calls


async def test_a_partly_re_embedded_index_searches_by_meaning_and_names_the_rest(tmp_path: Path):
    from studyhall.adapters.search.index import FileSearchIndex

    index = FileSearchIndex(None)
    chunk = Chunk("a:0", "a", "a.txt", "text", "A", "", "Mark and sweep frees unmarked objects.",
                  sentences=("Mark and sweep frees unmarked objects.",))
    old = Chunk("b:0", "b", "b.txt", "text", "B", "", "Closures capture variables.",
                sentences=("Closures capture variables.",))
    hasher = HashEmbedder()
    index.upsert("a", "h", [chunk], await hasher.embed([chunk.text]), hasher.model_id)
    index.upsert("a2", "h", [Chunk("a2:0", "a2", "c.txt", "text", "C", "", "Copying collectors.")],
                 await hasher.embed(["Copying collectors."]), hasher.model_id)
    index.upsert("b", "h", [old], [(1.0,) + (0.0,) * 63], "test/older-64")
    retriever = Retriever(index, embedder=hasher)
    r = await retriever.retrieve("What does mark and sweep free?")
    assert [n.kind for n in r.notices] == ["reindex"] and "1 passage" in r.notices[0].message
    assert all("dense" in h.signals for h in r.hits)  # the current model's vectors are used
