"""The AskStore contract, held against the in-memory store and the JSON file store: an answer's
checkpoints replace one exchange in place (incomplete, then complete), later questions follow,
and records from before checkpoints read back as complete."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from studyhall.adapters.fakes import InMemoryAskStore
from studyhall.adapters.store import JsonAskStore
from studyhall.core.contracts.asks import CUT_OFF, STOPPED, AskExchange
from studyhall.core.errors import StoreError
from studyhall.core.ports.storage import AskStore

from tests.support.records import at

THREAD = "ask_0123456789abcdef"
SOURCES = [{"n": 1, "link": "gc.vtt#t=754", "text": "Mark and sweep marks every object."}]


def exchange(xid: str, answer: str = "", *, final: bool = False, question: str = "Why?") -> AskExchange:
    return AskExchange(id=xid, question=question, asked_at=at(0), case="MATCH", sources=SOURCES,
                       answer=answer, answered=final, complete=final, cut_off=not final,
                       reason=None if final else CUT_OFF)


class AskStoreContract:
    @pytest.fixture
    def store(self) -> AskStore:
        raise NotImplementedError

    @pytest.fixture
    def reopen(self, store: AskStore) -> Callable[[], AskStore]:
        raise NotImplementedError

    def test_checkpoints_then_the_end_leave_one_complete_exchange(self, store: AskStore, reopen) -> None:
        store.put_exchange(THREAD, exchange("x1"), at(1))  # the passages went out
        kept = reopen().get(THREAD)
        assert kept is not None and kept.created_at == at(1)
        (only,) = kept.exchanges
        assert only.sources == SOURCES and only.answer == ""
        assert (only.complete, only.cut_off, only.reason) == (False, True, CUT_OFF)

        store.put_exchange(THREAD, exchange("x1", "Mark and"), at(2))
        store.put_exchange(THREAD, exchange("x1", "Mark and sweep [1]."), at(3))
        (only,) = reopen().get(THREAD).exchanges
        assert only.answer == "Mark and sweep [1]." and only.complete is False

        store.put_exchange(THREAD, exchange("x1", "Mark and sweep [1]. Done.", final=True), at(4))
        kept = reopen().get(THREAD)
        (only,) = kept.exchanges
        assert (only.complete, only.cut_off, only.answered) == (True, False, True)
        assert only.answer == "Mark and sweep [1]. Done."
        assert (kept.created_at, kept.updated_at) == (at(1), at(4))

    def test_a_later_question_follows_and_a_checkpoint_keeps_its_place(self, store: AskStore, reopen) -> None:
        store.put_exchange(THREAD, exchange("x1", "first", final=True, question="One?"), at(1))
        store.put_exchange(THREAD, exchange("x2", "sec", question="Two?"), at(2))
        store.put_exchange(THREAD, exchange("x3", "", question="Three?"), at(3))
        store.put_exchange(THREAD, exchange("x2", "second", final=True, question="Two?"), at(4))
        kept = reopen().get(THREAD)
        assert [(x.question, x.answer, x.complete) for x in kept.exchanges] == [
            ("One?", "first", True), ("Two?", "second", True), ("Three?", "", False)]
        (summary,) = reopen().list()
        assert (summary.title, summary.questions, summary.updated_at) == ("One?", 3, at(4))

    def test_an_exchange_without_an_id_is_appended(self, store: AskStore, reopen) -> None:
        plain = AskExchange(question="Old?", asked_at=at(0), answer="yes", answered=True)
        store.put_exchange(THREAD, plain, at(1))
        store.put_exchange(THREAD, plain, at(2))
        assert len(reopen().get(THREAD).exchanges) == 2

    def test_a_bad_conversation_id_is_refused_and_nothing_is_written(self, store: AskStore, reopen) -> None:
        with pytest.raises(StoreError):
            store.put_exchange("../secrets", exchange("x1"), at(1))
        assert reopen().list() == []


class TestInMemoryAskStore(AskStoreContract):
    @pytest.fixture
    def store(self) -> AskStore:
        return InMemoryAskStore()

    @pytest.fixture
    def reopen(self, store: AskStore) -> Callable[[], AskStore]:
        return lambda: store


class TestJsonAskStore(AskStoreContract):
    @pytest.fixture
    def store(self, tmp_path: Path) -> AskStore:
        return JsonAskStore(tmp_path / "asks")

    @pytest.fixture
    def reopen(self, tmp_path: Path) -> Callable[[], AskStore]:
        return lambda: JsonAskStore(tmp_path / "asks")

    def test_a_record_from_before_checkpoints_reads_as_complete(self, tmp_path: Path) -> None:
        old = {"id": THREAD, "created_at": at(0).isoformat(), "updated_at": at(1).isoformat(),
               "exchanges": [
                   {"question": "Done?", "asked_at": at(0).isoformat(), "answer": "Yes.",
                    "answered": True},
                   {"question": "Stopped?", "asked_at": at(1).isoformat(), "answer": "Half",
                    "reason": STOPPED}]}
        (tmp_path / "asks").mkdir()
        (tmp_path / "asks" / f"{THREAD}.json").write_text(json.dumps(old))
        done, stopped = JsonAskStore(tmp_path / "asks").get(THREAD).exchanges
        assert (done.complete, done.cut_off, done.id) == (True, False, None)
        assert (stopped.complete, stopped.cut_off, stopped.answer) == (True, True, "Half")
