"""What only the file stores can show: the files themselves, damaged files, stale temp files."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from studyhall.adapters.store import (
    JsonChatStore,
    JsonJobStore,
    JsonlGraphStore,
    JsonSourceStore,
    atomic_write_bytes,
    sweep_temp_files,
)
from studyhall.core.contracts.graph import Position
from studyhall.core.errors import StoreError

from tests.support.records import at, chat, job, message, source


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_chat_is_one_readable_json_file_and_no_temp_is_left(tmp_path: Path) -> None:
    store = JsonChatStore(tmp_path / "chats")
    store.create(chat("chat_a"))
    store.save_messages("chat_a", [message("m1", "hi")], at(1))
    assert sorted(p.name for p in (tmp_path / "chats").iterdir()) == ["chat_a.json"]
    doc = json.loads((tmp_path / "chats" / "chat_a.json").read_text())
    assert doc["id"] == "chat_a" and doc["messages"][0]["parts"][0]["text"] == "hi"


def test_a_damaged_chat_is_reported_and_the_others_still_listed(tmp_path: Path, caplog) -> None:
    store = JsonChatStore(tmp_path / "chats")
    store.create(chat("chat_a"))
    store.create(chat("chat_b", minute=1))
    (tmp_path / "chats" / "chat_b.json").write_text('{"id": "chat_b", "messa')
    with pytest.raises(StoreError, match=r"chats/chat_b\.json .*Restore it from a backup"):
        store.get("chat_b")
    with caplog.at_level(logging.WARNING):
        assert [s.id for s in store.list()] == ["chat_a"]
        assert [s.id for s in store.list()] == ["chat_a"]
    assert sum("chat_b" in r.getMessage() for r in caplog.records) == 1  # warned once
    with pytest.raises(StoreError):
        store.save_messages("chat_b", [message("m1")], at(2))
    assert (tmp_path / "chats" / "chat_b.json").read_text() == '{"id": "chat_b", "messa'


def test_listing_sees_changes_made_by_another_writer(tmp_path: Path) -> None:
    mine, theirs = JsonChatStore(tmp_path / "chats"), JsonChatStore(tmp_path / "chats")
    mine.create(chat("chat_a"))
    assert mine.list()[0].title is None
    theirs.set_title("chat_a", "Tides", at(1))
    theirs.create(chat("chat_b", minute=2))
    assert [(s.id, s.title) for s in mine.list()] == [("chat_b", None), ("chat_a", "Tides")]
    (tmp_path / "chats" / "chat_b.json").unlink()
    assert [s.id for s in mine.list()] == ["chat_a"]


def test_a_damaged_job_file_is_skipped_from_the_list(tmp_path: Path) -> None:
    store = JsonJobStore(tmp_path / "jobs")
    store.save(job("job_1"))
    (tmp_path / "jobs" / "job_2.json").write_text("{}")
    (tmp_path / "jobs" / "notes.txt").write_text("not a job")
    assert [j.id for j in store.list()] == ["job_1"]
    with pytest.raises(StoreError, match="jobs/job_2.json does not fit Job"):
        store.get("job_2")


def test_a_damaged_sources_index_is_reported(tmp_path: Path) -> None:
    store = JsonSourceStore(tmp_path / "sources")
    store.save(source("src_1", "a.md"))
    (tmp_path / "sources" / "index.json").write_text("[1, 2")
    with pytest.raises(StoreError, match="import your notes again"):
        store.list()


def test_damaged_side_stores_read_as_empty_since_they_can_be_recomputed(tmp_path: Path) -> None:
    store = JsonlGraphStore(tmp_path / "graph")
    store.save_positions({"n_1": Position(x=1, y=2)})
    store.save_embeddings("minilm", {"n_1": [1.0, 0.0]})
    (tmp_path / "graph" / "positions.json").write_text("{oops")
    emb = next((tmp_path / "graph" / "embeddings").iterdir())
    doc = json.loads(emb.read_text())
    doc["vectors"]["n_2"] = "!!not base64!!"
    emb.write_text(json.dumps(doc))
    assert store.positions() == {}
    assert {k: tuple(v.tolist()) for k, v in store.embeddings("minilm").items()} == {
        "n_1": (1.0, 0.0)
    }
    store.save_positions({"n_1": Position(x=5, y=5)})
    assert store.positions() == {"n_1": Position(x=5, y=5)}


def test_temp_files_of_dead_writers_are_swept_and_live_ones_kept(tmp_path: Path) -> None:
    folder = tmp_path / "chats"
    folder.mkdir()
    stale = folder / f".chat_a.json.{dead_pid()}.abcd1234.tmp"
    live = folder / f".chat_b.json.{os.getppid()}.abcd1234.tmp"
    stale.write_text('{"id": "chat_a", "mess')
    live.write_text("{")
    store = JsonChatStore(folder)
    assert store.list() == []  # temp files are never mistaken for chats
    store.create(chat("chat_c"))  # the first write sweeps
    assert not stale.exists() and live.exists()
    assert sweep_temp_files(folder) == 0


def test_atomic_write_replaces_and_creates_missing_folders(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "file.json"
    atomic_write_bytes(target, b"one")
    atomic_write_bytes(target, b"two")
    assert target.read_bytes() == b"two"
    assert [p.name for p in target.parent.iterdir()] == ["file.json"]
    atomic_write_bytes(tmp_path / "secret.json", b"k", mode=0o600)
    assert (tmp_path / "secret.json").stat().st_mode & 0o777 == 0o600


def test_a_sources_index_entry_of_the_wrong_shape_is_named(tmp_path: Path) -> None:
    store = JsonSourceStore(tmp_path / "sources")
    store.save(source("src_1", "a.md"))
    path = tmp_path / "sources" / "index.json"
    doc = json.loads(path.read_text())
    doc["sources"][0]["kind"] = "movie"
    path.write_text(json.dumps(doc))
    with pytest.raises(StoreError, match=r"does not fit Source \(0\.kind"):
        store.list()


def test_a_chat_file_under_another_chats_name_is_refused(tmp_path: Path) -> None:
    store = JsonChatStore(tmp_path / "chats")
    store.create(chat("chat_a"))
    (tmp_path / "chats" / "chat_b.json").write_bytes(
        (tmp_path / "chats" / "chat_a.json").read_bytes()
    )
    with pytest.raises(StoreError, match="holds chat 'chat_a', not 'chat_b'"):
        store.get("chat_b")
    assert [s.id for s in store.list()] == ["chat_a"]
