"""The graph reader over the file store: tail reads and the fold cache.

The cache is derived and disposable: whatever happened to it — never written, deleted, stale,
damaged, outrun by rewritten ledgers — a reader shows exactly the graph a fresh full fold of
the ledgers gives.
"""

from __future__ import annotations

import gc
import itertools
import logging
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from studyhall.adapters.store import JsonlGraphStore
from studyhall.adapters.store.fold_cache import NAME
from studyhall.core.contracts.graph import (
    EdgeAdded,
    Evidence,
    IdentityLinked,
    PropositionCreated,
    QuizEvent,
    RunCheckpoint,
    UnderstandingObserved,
)
from studyhall.core.library.graph.snapshot import graph_snapshot
from studyhall.server.runtime.library import graph_reader as reader_module
from studyhall.server.runtime.library.graph_reader import GraphReader

from tests.support.session_api import scripted_app

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def write_run(store: JsonlGraphStore, run: int, nodes: int = 10, *,
              checkpoint: bool = True) -> None:
    """One merge's worth of records about ``nodes`` new nodes (and links to older ones)."""
    at = T0 + timedelta(minutes=run)
    first = run * nodes
    ids = [f"n{first + i}" for i in range(nodes)]
    quote = (Evidence(source_id=f"chat_{run % 3}", message_id=f"m{run}", quote="a quote"),)
    store.append_propositions([PropositionCreated(
        id=f"prp_{n}", node_id=n, text=f"Statement {n}.", evidence=quote,
        source_id=f"chat_{run % 3}", run_id=f"run_{run}", at=at) for n in ids])
    store.append_edges([EdgeAdded.model_validate({
        "id": f"edg_{a}_{b}", "from": a, "to": b, "relation": "follows",
        "source_id": "chat_0", "run_id": f"run_{run}", "at": at})
        for a, b in itertools.pairwise(ids)])
    store.append_quiz_events([QuizEvent(
        id=f"quz_{n}", node_id=n, verdict="correct" if i % 2 else "miss", source_id="chat_0",
        tool_call_id=f"call_{run}", question_index=i, run_id=f"run_{run}", at=at)
        for i, n in enumerate(ids)])
    store.append_observations([UnderstandingObserved(
        id=f"obs_{n}", node_id=n, level="partial", source_id="chat_0", message_ids=("m1",),
        run_id=f"run_{run}", at=at) for n in ids])
    if run:
        store.append_identity_links([IdentityLinked(
            id=f"idl_{run}", node_id="n0", text="again", evidence=quote,
            source_id=f"chat_{run % 3}", run_id=f"run_{run}", at=at)])
    if checkpoint:
        store.append_checkpoint(RunCheckpoint(id=f"run_{run}", source_id="chat_0",
                                              started_at=at, finished_at=at))


def fresh(root: Path):
    """The reference: a full fold of every ledger, no cache involved."""
    return graph_snapshot(JsonlGraphStore(root))


def cached_reader(root: Path, save_after: int = 50) -> GraphReader:
    reader = GraphReader(JsonlGraphStore(root), save_after=save_after)
    reader.snapshot()
    reader.settle()
    return reader


@pytest.fixture
def root(tmp_path: Path) -> Path:
    store = JsonlGraphStore(tmp_path / "graph")
    for run in range(8):
        write_run(store, run)
    return tmp_path / "graph"


def test_deleting_the_cache_changes_nothing(root) -> None:
    cached_reader(root)
    assert (root / NAME).exists()
    store = JsonlGraphStore(root)
    write_run(store, 8)  # new lines after the save: the restored fold reads only those
    write_run(store, 9, checkpoint=False)  # a run still waiting for its checkpoint
    with_cache = GraphReader(JsonlGraphStore(root)).snapshot()
    (root / NAME).unlink()
    without = GraphReader(JsonlGraphStore(root)).snapshot()
    assert with_cache == without == fresh(root)
    assert len(with_cache.nodes) == 90 and with_cache.node("n0").sources == (
        "chat_0", "chat_1", "chat_2")


def test_a_run_saved_while_waiting_counts_once_its_checkpoint_comes(root) -> None:
    store = JsonlGraphStore(root)
    write_run(store, 8, checkpoint=False)
    cached_reader(root)  # the cache holds run_8's records as pending
    store.append_checkpoint(RunCheckpoint(id="run_8", source_id="chat_0", started_at=T0,
                                          finished_at=T0))
    snap = GraphReader(JsonlGraphStore(root)).snapshot()
    assert "run_8" in snap.runs and snap.node("n80") is not None
    assert snap == fresh(root)


def test_a_replay_after_the_save_is_still_ignored(root) -> None:
    cached_reader(root)
    path = root / "quiz_events.jsonl"
    first_line = path.read_bytes().split(b"\n")[0]
    replayed = first_line.replace(b'"verdict":"miss"', b'"verdict":"correct"')
    assert replayed != first_line
    with open(path, "ab") as f:  # the same id again, even with other content
        f.write(replayed + b"\n")
    snap = GraphReader(JsonlGraphStore(root)).snapshot()
    assert snap == fresh(root)
    assert [q.verdict for q in snap.node("n0").quiz] == ["miss"]


@pytest.mark.parametrize("damage", ["garbage", "truncated", "bit flip", "empty"])
def test_a_damaged_cache_is_ignored_and_replaced(root, caplog, damage) -> None:
    cached_reader(root)
    path = root / NAME
    data = path.read_bytes()
    path.write_bytes({"garbage": b"\x00" * 200, "truncated": data[: len(data) // 2],
                      "bit flip": data[:-100] + bytes([data[-100] ^ 1]) + data[-99:],
                      "empty": b""}[damage])
    with caplog.at_level(logging.WARNING):
        reader = cached_reader(root)
    assert reader.snapshot() == fresh(root)
    assert "fold-cache" in caplog.text
    assert GraphReader(JsonlGraphStore(root)).snapshot() == fresh(root)  # saved anew


def test_a_cache_older_than_a_rewritten_ledger_is_outrun(root) -> None:
    cached_reader(root)
    path = root / "propositions.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:30]))  # someone cut the ledger short
    snap = GraphReader(JsonlGraphStore(root)).snapshot()
    assert snap == fresh(root) and len(snap.nodes) == 30


def test_a_cache_in_a_shape_this_version_cannot_read_is_refused(root, caplog) -> None:
    store = JsonlGraphStore(root)
    reader = cached_reader(root)
    marks, plain = store.load_fold_cache()
    junk = tuple(b"junk" for _ in plain[4][8])  # trails this code cannot decode
    store.save_fold_cache(marks, (*plain[:4], (*plain[4][:8], junk), *plain[5:]))
    with caplog.at_level(logging.WARNING):
        assert GraphReader(JsonlGraphStore(root)).snapshot() == reader.snapshot()
    assert "not usable" in caplog.text


def test_a_small_graph_never_writes_a_cache(tmp_path) -> None:
    store = JsonlGraphStore(tmp_path / "graph")
    write_run(store, 0)
    reader = GraphReader(store)  # the default threshold
    reader.snapshot()
    reader.settle()
    assert not (tmp_path / "graph" / NAME).exists()


def test_a_failed_save_is_logged_and_the_graph_still_reads(root, caplog, monkeypatch) -> None:
    def refuse(*_: object) -> None:
        raise OSError(28, "No space left on device")

    store = JsonlGraphStore(root)
    monkeypatch.setattr(store, "save_fold_cache", refuse)
    reader = GraphReader(store, save_after=50)
    with caplog.at_level(logging.WARNING):
        snap = reader.snapshot()
        reader.settle()
    assert snap == fresh(root) and "could not save the graph fold cache" in caplog.text


def test_a_failed_read_starts_clean_next_time(root, monkeypatch) -> None:
    store = JsonlGraphStore(root)
    reader = GraphReader(store)
    reader.snapshot()
    write_run(JsonlGraphStore(root), 8)
    real = store.read_since

    def dies(marks, feed):
        real(marks, feed)
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(store, "read_since", dies)
    with pytest.raises(OSError):
        reader.snapshot()
    monkeypatch.setattr(store, "read_since", real)
    assert reader.snapshot() == fresh(root)


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_only_for_the_bulk_read(root, monkeypatch, enabled) -> None:
    seen: list[bool] = []
    store = JsonlGraphStore(root)
    real = store.read_since

    def spy(marks, feed):
        seen.append(gc.isenabled())
        return real(marks, feed)

    monkeypatch.setattr(store, "read_since", spy)
    if not enabled:
        gc.disable()
    try:
        reader = GraphReader(store)
        reader.snapshot()
        assert gc.isenabled() is enabled  # as it was
        reader.snapshot()
        assert seen == [False, enabled]  # paused for the first (bulk) read only
    finally:
        gc.enable()


def test_overlapping_pauses_switch_the_collector_back_on_once_all_end() -> None:
    first, second = reader_module._gc_paused(), reader_module._gc_paused()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert not gc.isenabled()
    second.__exit__(None, None, None)
    assert gc.isenabled()


async def test_get_graph_folds_off_the_event_loop(monkeypatch) -> None:
    threads: list[threading.Thread] = []
    real = GraphReader.snapshot

    def spy(self):
        threads.append(threading.current_thread())
        return real(self)

    monkeypatch.setattr(GraphReader, "snapshot", spy)
    async with scripted_app(None) as (api, _):
        r = await api.http.get("/api/graph")
    assert r.status_code == 200 and r.json()["nodes"] == []
    assert threads and threading.main_thread() not in threads
