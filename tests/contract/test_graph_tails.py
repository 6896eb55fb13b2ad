"""The file graph store's tail reads and fold cache (the ``GraphTails`` capability).

A tail read feeds only what was appended since a mark, with the same guarantees as a whole
read (bad lines skipped and counted, replays ignored), and refuses a mark that no longer
describes the file. The fold cache round-trips, and anything wrong with it is a miss.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import pytest
from studyhall.adapters.store import JsonlGraphStore
from studyhall.adapters.store.fold_cache import NAME, PackedIds
from studyhall.core.ports.storage import GraphTails

from tests.support.records import checkpoint, edge, proposition, quiz_event


class Fed:
    def __init__(self) -> None:
        self.calls: list[tuple[str, list[str]]] = []

    def __call__(self, name: str, records: Any) -> None:
        self.calls.append((name, [r.id for r in records]))

    def ids(self, name: str) -> list[str]:
        return [i for n, chunk in self.calls if n == name for i in chunk]


def read(store: JsonlGraphStore, marks: object | None = None) -> tuple[Fed, object | None]:
    fed = Fed()
    return fed, store.read_since(marks, fed)


@pytest.fixture
def store(tmp_path: Path) -> JsonlGraphStore:
    return JsonlGraphStore(tmp_path / "graph")


def test_the_file_store_offers_tails_and_an_empty_graph_feeds_nothing(store) -> None:
    assert isinstance(store, GraphTails)
    fed, marks = read(store)
    assert fed.calls == [] and marks is not None
    assert not store._root.exists()  # reading never creates anything


def test_a_tail_read_feeds_checkpoints_first_then_only_what_is_new(store) -> None:
    store.append_propositions([proposition("p1"), proposition("p2")])
    store.append_checkpoint(checkpoint("run_1"))
    fed, marks = read(store)
    assert [name for name, _ in fed.calls] == ["checkpoints", "propositions"]
    assert fed.ids("propositions") == ["p1", "p2"]
    store.append_propositions([proposition("p3")])
    store.append_edges([edge("e1", "p1", "p3")])
    fed, marks = read(store, marks)
    assert fed.calls == [("propositions", ["p3"]), ("edges", ["e1"])]
    fed, _ = read(store, marks)
    assert fed.calls == []


def test_replays_and_bad_lines_after_a_mark_are_ignored_and_counted(store, tmp_path) -> None:
    store.append_propositions([proposition("p1")])
    _, marks = read(store)
    path = tmp_path / "graph" / "propositions.jsonl"
    replay = path.read_bytes()  # the same record appended again (a retried write)
    with open(path, "ab") as f:
        f.write(replay + b'{"kind": "proposition", "id": "broken"}\n' + b"not json\n")
    store.append_propositions([proposition("p2")])
    fed, marks = read(store, marks)
    assert fed.ids("propositions") == ["p2"]
    mark = marks.ledgers["propositions"]
    assert (mark.replayed, mark.skipped, mark.count) == (1, 2, 2)
    assert "line 3: does not fit PropositionCreated" in mark.reasons[0]


def test_a_torn_last_line_waits_until_it_is_complete(store, tmp_path) -> None:
    path = tmp_path / "graph" / "propositions.jsonl"
    store.append_propositions([proposition("p1")])
    whole = path.read_bytes()
    store.append_propositions([proposition("p2")])
    line = path.read_bytes()[len(whole):]
    path.write_bytes(whole + line[:20])  # a writer is in the middle of the line
    fed, marks = read(store)
    assert fed.ids("propositions") == ["p1"]
    path.write_bytes(whole + line)
    fed, _ = read(store, marks)
    assert fed.ids("propositions") == ["p2"]


def rewrite(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "replaced":
        tmp = path.with_suffix(".new")
        tmp.write_bytes(data)
        os.replace(tmp, path)  # same bytes, another file
    elif how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how in ("head changed", "end changed"):
        st = os.stat(path)
        with open(path, "r+b") as f:  # in place: same inode, same size...
            f.seek(0 if how == "head changed" else len(data) - 3)
            f.write(b"#")
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # ...and even the same time
    elif how == "same size, rewritten":
        st = os.stat(path)
        with open(path, "r+b") as f:
            f.seek(len(data) // 2)
            f.write(b"X")  # the middle changes, size stays
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    elif how == "deleted":
        path.unlink()


@pytest.mark.parametrize("how", ["replaced", "truncated", "head changed", "end changed",
                                 "same size, rewritten", "deleted"])
def test_a_mark_that_no_longer_fits_its_file_is_refused_and_nothing_is_fed(
        store, tmp_path, how) -> None:
    store.append_propositions([proposition(f"p{i}") for i in range(40)])
    store.append_quiz_events([quiz_event("q1")])
    _, marks = read(store)
    rewrite(tmp_path / "graph" / "propositions.jsonl", how)
    fed, again = read(store, marks)
    assert again is None and fed.calls == []
    fed, fresh = read(store)  # the caller starts over
    assert fresh is not None and fed.ids("quiz_events") == ["q1"]


def test_the_fold_cache_round_trips_with_its_marks(store) -> None:
    store.append_propositions([proposition("p1"), proposition("p2")])
    _, marks = read(store)
    state = (1, ("any", "plain", b"data", 2.5, None))
    store.save_fold_cache(marks, state)
    loaded_marks, loaded_state = store.load_fold_cache()
    assert loaded_state == state
    mark = loaded_marks.ledgers["propositions"]
    assert mark == marks.ledgers["propositions"].__class__(**{
        **marks.ledgers["propositions"].__dict__, "ids": mark.ids})
    packed = mark.ids[0]
    assert isinstance(packed, PackedIds) and len(packed) == 2
    store.append_propositions([proposition("p3")])
    fed, after = read(store, loaded_marks)
    assert fed.ids("propositions") == ["p3"]
    assert packed._ids is None  # a new id is told apart by its CRC: nothing was unpacked
    store.append_propositions([proposition("p1")])  # a replay of a line before the save
    fed, after = read(store, after)
    assert fed.calls == [] and after.ledgers["propositions"].replayed == 1
    assert set(packed) == {"p1", "p2"}
    # Saved again without ever being looked at, the packed ids are written as they were.
    store.save_fold_cache(loaded_marks, state)
    assert store.load_fold_cache()[1] == state


@pytest.mark.parametrize("damage", [
    lambda b: b"",
    lambda b: b"studyhall fold cache 0 other-python\n" + b[b.index(b"\n") + 1:],
    lambda b: b[:-1],
    lambda b: b[:-5] + bytes([b[-5] ^ 0xFF]) + b[-4:],
    lambda b: b[:60],
])
def test_a_damaged_or_foreign_fold_cache_is_a_miss(store, tmp_path, caplog, damage) -> None:
    store.append_propositions([proposition("p1")])
    _, marks = read(store)
    store.save_fold_cache(marks, ("state",))
    path = tmp_path / "graph" / NAME
    path.write_bytes(damage(path.read_bytes()))
    with caplog.at_level(logging.WARNING):
        assert store.load_fold_cache() is None
    assert "fold-cache" in caplog.text


def test_no_fold_cache_is_a_quiet_miss(store) -> None:
    assert store.load_fold_cache() is None
