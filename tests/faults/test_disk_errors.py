"""A full disk, a refused permission, a read-only file system: a clear StoreError, and the files as
they were — no half-written file, no temp file left behind, and the next write works."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from studyhall.adapters.store import (
    JsonChatStore,
    JsonlGraphStore,
    JsonSettingsStore,
)
from studyhall.core.contracts.settings import Settings
from studyhall.core.errors import StoreError

from tests.support.records import at, chat, edge, message

pytestmark = pytest.mark.slow

REAL_OPEN, REAL_WRITE, REAL_FSYNC, REAL_REPLACE = os.open, os.write, os.fsync, os.replace
REAL_FTRUNCATE = os.ftruncate


def fd_path(fd: int) -> str:
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return ""


def files_in(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def disk(monkeypatch: pytest.MonkeyPatch, root: Path):
    """Make one OS call fail with an errno, only for files under the data dir."""

    def fail(call: str, code: int, *, half_first: bool = False) -> None:
        def ours(target: object) -> bool:
            path = fd_path(target) if isinstance(target, int) else os.fspath(target)
            return str(path).startswith(str(root))

        def boom(target: object) -> OSError:
            name = target if not isinstance(target, int) else fd_path(target)
            return OSError(code, os.strerror(code), str(name))

        if call == "write":

            def write(fd: int, data: bytes) -> int:
                if not ours(fd):
                    return REAL_WRITE(fd, data)
                if half_first and len(data) > 1:  # a partial write first, like a filling disk
                    REAL_WRITE(fd, bytes(data[: len(data) // 2]))
                raise boom(fd)

            monkeypatch.setattr(os, "write", write)
        elif call == "fsync":
            monkeypatch.setattr(
                os,
                "fsync",
                lambda fd: (_ for _ in ()).throw(boom(fd)) if ours(fd) else REAL_FSYNC(fd),
            )
        elif call == "fsync-dir":

            def fsync(fd: int) -> None:
                if ours(fd) and os.path.isdir(fd_path(fd)):
                    raise boom(fd)
                REAL_FSYNC(fd)

            monkeypatch.setattr(os, "fsync", fsync)
        elif call == "open-create":

            def open_(path, flags, mode=0o777, *, dir_fd=None):  # type: ignore[no-untyped-def]
                if ours(path) and flags & os.O_CREAT:
                    raise boom(path)
                return REAL_OPEN(path, flags, mode, dir_fd=dir_fd)

            monkeypatch.setattr(os, "open", open_)
        elif call == "replace":

            def replace(src, dst, **kw):  # type: ignore[no-untyped-def]
                if ours(dst):
                    raise boom(dst)
                return REAL_REPLACE(src, dst, **kw)

            monkeypatch.setattr(os, "replace", replace)
        elif call == "ftruncate":
            monkeypatch.setattr(os, "ftruncate", lambda fd, n: (_ for _ in ()).throw(boom(fd)))
        else:
            raise ValueError(call)

    return fail


def assert_no_temp_files(root: Path) -> None:
    assert not [p for p in root.rglob(".*.tmp")], "a temp file was left behind"


@pytest.mark.parametrize(
    ("call", "code", "reason"),
    [
        ("write", errno.ENOSPC, "the disk is full (ENOSPC). Free some space and retry"),
        ("fsync", errno.ENOSPC, "the disk is full (ENOSPC). Free some space and retry"),
        ("fsync", errno.EIO, "input/output error (EIO)"),
        ("open-create", errno.EACCES, "permission denied on "),
        ("replace", errno.EROFS, "read-only file system (EROFS)"),
        ("write", errno.EDQUOT, "disk quota is used up (EDQUOT)"),
    ],
)
def test_a_failed_chat_save_keeps_the_previous_file(root, disk, call, code, reason) -> None:
    store = JsonChatStore(root / "chats")
    store.create(chat("chat_a", messages=(message("m1"),)))
    before = files_in(root)
    disk(call, code, half_first=True)
    with pytest.raises(StoreError) as caught:
        store.save_messages("chat_a", [message("m2", "x" * 5000)], at(1))
    text = str(caught.value)
    assert text.startswith("Could not save chat chat_a: ") and reason in text
    assert text.endswith("; nothing was changed.")
    assert files_in(root) == before
    assert_no_temp_files(root)
    assert [m.id for m in JsonChatStore(root / "chats").get("chat_a").messages] == ["m1"]


def test_the_full_disk_message_reads_as_promised(root, disk) -> None:
    store = JsonChatStore(root / "chats")
    store.create(chat("chat_a"))
    disk("write", errno.ENOSPC)
    with pytest.raises(StoreError) as caught:
        store.set_title("chat_a", "Tides", at(1))
    assert str(caught.value) == (
        "Could not save chat chat_a: the disk is full (ENOSPC). Free some space and retry; "
        "nothing was changed."
    )


def test_a_failed_first_save_leaves_no_file_at_all(root, disk) -> None:
    disk("write", errno.ENOSPC, half_first=True)
    with pytest.raises(StoreError, match="Could not save the settings: the disk is full"):
        JsonSettingsStore(root / "settings.json").save(Settings(chunk_tokens=3000))
    assert not (root / "settings.json").exists()
    assert_no_temp_files(root)
    assert JsonSettingsStore(root / "settings.json").load() == Settings()


@pytest.mark.parametrize(
    ("call", "code"),
    [("write", errno.ENOSPC), ("fsync", errno.ENOSPC), ("open-create", errno.EACCES)],
)
def test_a_failed_append_leaves_the_ledger_as_it_was(root, disk, call, code) -> None:
    graph = JsonlGraphStore(root / "graph")
    graph.append_edges([edge("e1"), edge("e2")])
    before = files_in(root)
    disk(call, code, half_first=True)
    with pytest.raises(
        StoreError, match=r"Could not append 50 record\(s\) to graph/edges\.jsonl: "
    ):
        graph.append_edges([edge(f"x{i}") for i in range(50)])
    assert files_in(root) == before
    got = JsonlGraphStore(root / "graph").edges()
    assert [r.id for r in got.records] == ["e1", "e2"] and got.skipped == 0


def test_when_even_the_rollback_fails_readers_skip_the_torn_tail(
    root, disk, caplog, monkeypatch
) -> None:
    graph = JsonlGraphStore(root / "graph")
    graph.append_edges([edge("e1")])
    disk("write", errno.ENOSPC, half_first=True)
    disk("ftruncate", errno.EIO)
    with pytest.raises(StoreError, match="disk is full"):
        graph.append_edges([edge("e2"), edge("e3"), edge("e4")])  # half: e2, and e3 torn
    assert "could not roll back" in caplog.text
    got = JsonlGraphStore(root / "graph").edges()
    assert [r.id for r in got.records] == ["e1", "e2"]  # whole lines of an unacknowledged batch
    assert got.skipped == 1 and "torn last line" in got.skipped_reasons[-1]
    monkeypatch.setattr(os, "write", REAL_WRITE)
    graph.append_edges([edge("e5")])  # starts on a clean line after the torn one
    got = JsonlGraphStore(root / "graph").edges()
    assert [r.id for r in got.records] == ["e1", "e2", "e5"]
    assert got.skipped == 1 and "line 3: not valid JSON" in got.skipped_reasons[0]


def test_writes_work_again_once_the_disk_has_room(root, disk, monkeypatch) -> None:
    graph, chats = JsonlGraphStore(root / "graph"), JsonChatStore(root / "chats")
    graph.append_edges([edge("e1")])
    chats.create(chat("chat_a"))
    disk("write", errno.ENOSPC, half_first=True)
    with pytest.raises(StoreError):
        graph.append_edges([edge("e2")])
    with pytest.raises(StoreError):
        chats.save_messages("chat_a", [message("m1")], at(1))
    monkeypatch.setattr(os, "write", REAL_WRITE)  # space freed
    graph.append_edges([edge("e2")])
    chats.save_messages("chat_a", [message("m1")], at(1))
    assert [r.id for r in JsonlGraphStore(root / "graph").edges().records] == ["e1", "e2"]
    assert len(JsonChatStore(root / "chats").get("chat_a").messages) == 1
    assert_no_temp_files(root)


def test_an_unreadable_chat_says_so_without_claiming_a_write(root, monkeypatch) -> None:
    store = JsonChatStore(root / "chats")
    store.create(chat("chat_a"))
    real_read: Callable[[Path], bytes] = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self.name == "chat_a.json":
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_read(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    with pytest.raises(StoreError) as caught:
        store.get("chat_a")
    text = str(caught.value)
    assert text.startswith("Could not read chat chat_a: permission denied on ")
    assert "chat_a.json" in text and "nothing was changed" not in text


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file permissions")
def test_a_read_only_folder_is_a_clear_error(root: Path) -> None:
    store = JsonChatStore(root / "chats")
    store.create(chat("chat_a"))
    before = files_in(root)
    os.chmod(root / "chats", 0o500)
    try:
        with pytest.raises(StoreError, match="permission denied"):
            store.save_messages("chat_a", [message("m1")], at(1))
    finally:
        os.chmod(root / "chats", 0o700)
    assert files_in(root) == before


def test_a_corrupt_line_in_the_middle_of_a_ledger_is_reported_not_fatal(root: Path) -> None:
    graph = JsonlGraphStore(root / "graph")
    graph.append_edges([edge("e1"), edge("e2")])
    path = root / "graph" / "edges.jsonl"
    first, second = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(first + b'{"kind": "edge", "id": \x00\xff garbage\n' + second)
    graph.append_edges([edge("e3")])
    got = JsonlGraphStore(root / "graph").edges()
    assert [r.id for r in got.records] == ["e1", "e2", "e3"]
    assert got.skipped == 1 and got.skipped_reasons[0].startswith("graph/edges.jsonl line 2: ")


def test_a_folder_flush_failing_after_the_rename_does_not_claim_nothing_changed(
    root, disk, caplog
) -> None:
    store = JsonChatStore(root / "chats")
    store.create(chat("chat_a"))
    disk("fsync-dir", errno.EIO)
    store.set_title("chat_a", "Tides", at(1))  # the file was replaced: that is a success
    assert JsonChatStore(root / "chats").get("chat_a").title == "Tides"
    assert "could not flush its folder" in caplog.text
    assert_no_temp_files(root)
