"""The LearnerStore contract (review grades, teacher observations), held against the in-memory
and JSONL stores; plus what only the file can show: a torn line is skipped, never glued."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from studyhall.adapters.fakes import InMemoryLearnerStore
from studyhall.adapters.store import JsonlLearnerStore
from studyhall.core.contracts.learner import (
    AssertionRetracted,
    CardSuspended,
    FlashcardKept,
    FlashcardsRetired,
    GradeUndone,
    LearnerAsserted,
    LearnerObserved,
    ReviewGraded,
    ReviewQuestionWritten,
)
from studyhall.core.errors import StoreError
from studyhall.core.ports.storage import LearnerStore

from tests.support.records import at


def graded(rid: str, grade: str = "good") -> ReviewGraded:
    return ReviewGraded(id=rid, node_id="n_tree", grade=grade, prompt_kind="cloze", at=at(1))


def observed(rid: str, level: str = "misconception") -> LearnerObserved:
    return LearnerObserved(id=rid, node_id="n_tree", level=level, note="thinks trees have cycles",
                           source_id="chat_a", at=at(2))


def question(rid: str, node_id: str = "n_tree") -> ReviewQuestionWritten:
    return ReviewQuestionWritten(id=rid, node_id=node_id, question="What is a tree?",
                                 answer="A connected graph without cycles.",
                                 evidence_quote="connected graph without cycles",
                                 model="ollama/llama3", at=at(3))


def flashcard(rid: str) -> FlashcardKept:
    return FlashcardKept(id=rid, artifact_id="art_1", node_id="n_tree", front="What is a tree?",
                         back="A connected graph without cycles.", evidence=None, at=at(4))


def retired(rid: str) -> FlashcardsRetired:
    return FlashcardsRetired(id=rid, artifact_id="art_1", at=at(5))


def asserted(rid: str) -> LearnerAsserted:
    return LearnerAsserted(id=rid, node_id="n_tree", claim="know", note="I use them daily",
                           at=at(6))


def undone(rid: str) -> GradeUndone:
    return GradeUndone(id=rid, grade_id="r1", at=at(8))


def suspended(rid: str) -> CardSuspended:
    return CardSuspended(id=rid, node_id="n_tree", suspended=True, at=at(9))


def retracted(rid: str) -> AssertionRetracted:
    return AssertionRetracted(id=rid, assertion_id="las_1", at=at(7))


LEDGERS = [("append_grades", "grades", graded), ("append_undone", "undone", undone),
           ("append_suspensions", "suspensions", suspended),
           ("append_observations", "observations", observed),
           ("append_questions", "questions", question),
           ("append_flashcards", "flashcards", flashcard),
           ("append_retirements", "retirements", retired),
           ("append_assertions", "assertions", asserted),
           ("append_retractions", "retractions", retracted)]


class LearnerStoreContract:
    @pytest.fixture
    def store(self) -> LearnerStore:
        raise NotImplementedError

    @pytest.fixture
    def reopen(self, store: LearnerStore) -> Callable[[], LearnerStore]:
        raise NotImplementedError

    @pytest.mark.parametrize(("append", "read", "build"), LEDGERS)
    def test_round_trip_in_append_order(self, store, reopen, append, read, build) -> None:
        getattr(store, append)([build("r1"), build("r2")])
        getattr(store, append)([build("r3")])
        for view in (store, reopen()):
            got = getattr(view, read)()
            assert [r.id for r in got.records] == ["r1", "r2", "r3"]
            assert got.records[0] == build("r1")
            assert (got.skipped, got.replayed) == (0, 0)

    @pytest.mark.parametrize(("append", "read", "build"), LEDGERS)
    def test_a_replayed_append_is_ignored(self, store, reopen, append, read, build) -> None:
        getattr(store, append)([build("r1"), build("r2")])
        getattr(store, append)([build("r2")])  # a retried request
        for view in (store, reopen()):
            got = getattr(view, read)()
            assert [r.id for r in got.records] == ["r1", "r2"] and got.replayed == 1

    def test_a_batch_with_an_invalid_record_is_refused_whole(self, store, reopen) -> None:
        bad = graded("r2").model_construct(id="r2", node_id="", grade="meh", at=at(1))
        with pytest.raises(StoreError, match="record 2 of 2"):
            store.append_grades([graded("r1"), bad])
        assert reopen().grades().records == ()

    def test_empty_ledgers_read_empty(self, store) -> None:
        assert store.grades().records == () and store.observations().records == ()
        store.append_grades([])
        assert store.grades().records == ()


class TestInMemoryLearnerStore(LearnerStoreContract):
    @pytest.fixture
    def store(self) -> LearnerStore:
        return InMemoryLearnerStore()

    @pytest.fixture
    def reopen(self, store: LearnerStore) -> Callable[[], LearnerStore]:
        return lambda: store


class TestJsonlLearnerStore(LearnerStoreContract):
    @pytest.fixture
    def root(self, tmp_path: Path) -> Path:
        return tmp_path / "learner"

    @pytest.fixture
    def store(self, root: Path) -> LearnerStore:
        return JsonlLearnerStore(root)

    @pytest.fixture
    def reopen(self, root: Path) -> Callable[[], LearnerStore]:
        return lambda: JsonlLearnerStore(root)

    def test_a_torn_last_line_is_skipped_and_the_next_append_starts_clean(self, store,
                                                                          root) -> None:
        store.append_grades([graded("r1")])
        with open(root / "reviews.jsonl", "ab") as f:
            f.write(b'{"kind": "review", "id": "r2", "node_')  # a writer killed mid-line
        torn = JsonlLearnerStore(root).grades()
        assert [r.id for r in torn.records] == ["r1"] and torn.skipped == 1
        assert "torn last line" in torn.skipped_reasons[0]
        store.append_grades([graded("r3", "again")])
        after = JsonlLearnerStore(root).grades()
        assert [r.id for r in after.records] == ["r1", "r3"] and after.skipped == 1
        assert after.records[1].grade == "again"

    def test_the_files_live_in_the_learner_folder(self, store, root) -> None:
        store.append_grades([graded("r1")])
        store.append_observations([observed("o1")])
        assert sorted(p.name for p in root.iterdir()) == ["observations.jsonl", "reviews.jsonl"]
