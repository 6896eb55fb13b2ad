"""server.json and the single-instance lock, without starting a server."""

from __future__ import annotations

import os
import stat

import pytest
from studyhall.server.instance import (
    InstanceLock,
    RunningServer,
    live_server,
    read_server_file,
    remove_server_file,
    server_file,
    write_server_file,
)

INFO = RunningServer(pid=os.getpid(), port=9, url="http://127.0.0.1:9", token="tok-" + "x" * 40)


def test_written_0600_and_read_back(tmp_path):
    path = write_server_file(tmp_path, INFO)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert read_server_file(tmp_path) == INFO
    assert INFO.token not in repr(INFO)
    assert INFO.launch_url == f"http://127.0.0.1:9/?token={INFO.token}"


@pytest.mark.parametrize("content", ["", "{", "[]", '{"pid": "x", "port": 1, "url": "u", "token": "t"}',
                                     '{"pid": 1, "port": 2}'])
def test_broken_server_json_reads_as_absent(tmp_path, content):
    server_file(tmp_path).write_text(content)
    assert read_server_file(tmp_path) is None
    assert live_server(tmp_path) is None


def test_only_our_own_record_is_removed(tmp_path):
    write_server_file(tmp_path, INFO)
    remove_server_file(tmp_path, pid=INFO.pid + 1)
    assert read_server_file(tmp_path) == INFO
    remove_server_file(tmp_path, pid=INFO.pid)
    assert not server_file(tmp_path).exists()
    remove_server_file(tmp_path)  # already gone: fine


def test_a_record_nobody_answers_is_not_live(tmp_path):
    write_server_file(tmp_path, INFO)  # our pid is alive, but nothing serves port 9
    assert live_server(tmp_path) is None


def test_lock_is_exclusive_per_data_dir(tmp_path):
    first, second = InstanceLock(tmp_path), InstanceLock(tmp_path)
    assert first.try_acquire()
    assert not second.try_acquire()
    assert InstanceLock(tmp_path / "other").try_acquire()
    first.release()
    assert second.try_acquire()
    second.release()
