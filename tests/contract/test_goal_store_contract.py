"""The GoalStore contract, held against the in-memory and JSONL stores: versions round-trip and
the newest counts, a replayed version is kept once, deletion by tombstone, a bad batch refused
whole; and what only the file can show: a torn last line is skipped, and a writer SIGKILLed
mid-write leaves the goal as it was before that write (never half a version)."""

from __future__ import annotations

import os
import random
import signal
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
from studyhall.adapters.fakes import InMemoryGoalStore
from studyhall.adapters.store import JsonlGoalStore
from studyhall.core.contracts.goals import (
    Goal,
    GoalPlan,
    GoalRemoved,
    GoalSaved,
    goal_removal_id,
    live_goals,
)
from studyhall.core.errors import StoreError
from studyhall.core.ports.storage import GoalStore

from tests.support.records import at

PLAN = "flowchart TD\n    A[\"Graphs\"]\n    B[\"BFS\"]\n    A --> B\n"


def version(goal: str, n: int, *, text: str = "Learn graph algorithms",
            chats: tuple[str, ...] = ()) -> GoalSaved:
    return GoalSaved(id=f"{goal}@{n}", goal=Goal(
        id=goal, text=text, target=date(2026, 3, 1), plan=GoalPlan(title="Graphs", mermaid=PLAN),
        chat_ids=chats, created_at=at(0 if goal == "goal_a" else 1), updated_at=at(n)))


def tombstone(goal: str) -> GoalRemoved:
    return GoalRemoved(id=goal_removal_id(goal), goal_id=goal, at=at(9))


def live(store: GoalStore) -> list[Goal]:
    return live_goals(store.saved().records, store.removed().records)


class GoalStoreContract:
    @pytest.fixture
    def store(self) -> GoalStore:
        raise NotImplementedError

    @pytest.fixture
    def reopen(self, store: GoalStore) -> Callable[[], GoalStore]:
        raise NotImplementedError

    def test_the_newest_version_of_each_goal_counts(self, store, reopen) -> None:
        store.save([version("goal_a", 1), version("goal_b", 1)])
        store.save([version("goal_a", 2, chats=("chat_1",))])
        for view in (store, reopen()):
            goals = live(view)
            assert [g.id for g in goals] == ["goal_b", "goal_a"]  # newest goal first
            assert goals[1] == version("goal_a", 2, chats=("chat_1",)).goal
            assert goals[1].plan is not None and goals[1].plan.mermaid == PLAN
            assert (view.saved().skipped, view.saved().replayed) == (0, 0)

    def test_a_replayed_version_is_kept_once(self, store, reopen) -> None:
        store.save([version("goal_a", 1)])
        store.save([version("goal_a", 1)])
        for view in (store, reopen()):
            assert [v.id for v in view.saved().records] == ["goal_a@1"]
            assert view.saved().replayed == 1

    def test_a_tombstone_takes_the_goal_out(self, store, reopen) -> None:
        store.save([version("goal_a", 1), version("goal_b", 1)])
        store.remove([tombstone("goal_a")])
        store.remove([tombstone("goal_a")])  # deleting twice: one tombstone
        for view in (store, reopen()):
            assert [g.id for g in live(view)] == ["goal_b"]
            assert len(view.removed().records) == 1
            assert len(view.saved().records) == 2  # append-only: the versions stay, hidden

    def test_a_batch_with_an_invalid_version_is_refused_whole(self, store, reopen) -> None:
        bad = version("goal_b", 1).model_construct(id="", goal=None)
        with pytest.raises(StoreError, match="record 2 of 2"):
            store.save([version("goal_a", 1), bad])
        too_long = version("goal_c", 1).goal.model_construct(
            **{**version("goal_c", 1).goal.__dict__, "text": "x" * 201})
        with pytest.raises(StoreError):
            store.save([GoalSaved.model_construct(id="goal_c@1", goal=too_long)])
        assert reopen().saved().records == ()

    def test_empty_ledgers_read_empty(self, store) -> None:
        assert store.saved().records == () and store.removed().records == ()
        store.save([])
        assert live(store) == []


class TestInMemoryGoalStore(GoalStoreContract):
    @pytest.fixture
    def store(self) -> GoalStore:
        return InMemoryGoalStore()

    @pytest.fixture
    def reopen(self, store: GoalStore) -> Callable[[], GoalStore]:
        return lambda: store


class TestJsonlGoalStore(GoalStoreContract):
    @pytest.fixture
    def root(self, tmp_path: Path) -> Path:
        return tmp_path / "goals"

    @pytest.fixture
    def store(self, root: Path) -> GoalStore:
        return JsonlGoalStore(root)

    @pytest.fixture
    def reopen(self, root: Path) -> Callable[[], GoalStore]:
        return lambda: JsonlGoalStore(root)

    def test_a_torn_last_line_leaves_the_version_before(self, store, root) -> None:
        store.save([version("goal_a", 1)])
        with open(root / "saved.jsonl", "ab") as f:
            f.write(b'{"id": "goal_a@2", "goal": {"id": "goal_a", "te')  # killed mid-line
        torn = JsonlGoalStore(root)
        assert live(torn) == [version("goal_a", 1).goal] and torn.saved().skipped == 1
        assert "torn last line" in torn.saved().skipped_reasons[0]
        store.save([version("goal_a", 3)])
        assert live(JsonlGoalStore(root)) == [version("goal_a", 3).goal]

    def test_sigkill_mid_write_leaves_the_acknowledged_version(self, root) -> None:
        rng = random.Random(29)
        acked, torn = 0, 0
        for _trial in range(12):
            acked = max(acked, _killed_writer(root, rng))
            path = root / "saved.jsonl"
            torn += path.exists() and not path.read_bytes().endswith(b"\n")
            goals = live(JsonlGoalStore(root))
            if acked == 0 and not goals:
                continue
            (goal,) = goals
            n = int(goal.text.rsplit(" ", 1)[1])
            assert n >= acked, "an acknowledged version was lost"
            assert goal == version("goal_a", n, text=f"Learn graphs, version {n}").goal
        assert acked > 0 and torn >= 1, f"no kill landed mid-write ({torn} torn lines)"


def _killed_writer(root: Path, rng: random.Random) -> int:
    """Fork a writer that saves version after version of one goal through a slow disk (short
    writes), kill it at a random instant after a few saves; the highest version acknowledged."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child never returns into pytest
        try:
            os.close(read_end)
            real_write = os.write

            def slow_write(fd: int, data: bytes) -> int:
                time.sleep(0.0001)
                return real_write(fd, bytes(data[:48]))

            os.write = slow_write  # type: ignore[assignment]
            store = JsonlGoalStore(root)
            n = len(store.saved().records)
            while True:
                n += 1
                store.save([version("goal_a", n, text=f"Learn graphs, version {n}")])
                real_write(write_end, f"{n}\n".encode())
        finally:
            os._exit(0)
    os.close(write_end)
    want, buf = rng.randint(0, 3), b""
    while buf.count(b"\n") < want:  # let it save a few versions first, then kill at random
        chunk = os.read(read_end, 4096)
        if not chunk:
            break
        buf += chunk
    time.sleep(rng.random() * 0.003)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    while chunk := os.read(read_end, 65536):
        buf += chunk
    os.close(read_end)
    return max((int(x) for x in buf.split()), default=0)
