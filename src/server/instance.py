"""One server per data dir: the ``studyhall.lock`` filelock and the ``server.json`` handshake.

``server.json`` (mode 0600) tells other programs how to reach the running server:
``{"pid", "port", "url", "token"}``. It is written once the socket is bound and removed on a
clean exit; a leftover from a crash is recognised as stale (its owner no longer holds the lock).
"""

from __future__ import annotations

import http.client
import json
import os
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from filelock import FileLock, Timeout
from studyhall.server.config import make_private_dir

SERVER_FILE = "server.json"
LOCK_FILE = "studyhall.lock"


@dataclass(frozen=True)
class RunningServer:
    pid: int
    port: int
    url: str
    token: str = field(repr=False)

    @property
    def launch_url(self) -> str:
        """The URL a window opens once: it trades the token for a session cookie."""
        return f"{self.url}/?token={self.token}"


def server_file(data_dir: Path) -> Path:
    return data_dir / SERVER_FILE


def write_server_file(data_dir: Path, info: RunningServer) -> Path:
    """Atomically write ``server.json`` with mode 0600 from its first byte."""
    path = server_file(data_dir)
    make_private_dir(data_dir)
    fd, tmp = tempfile.mkstemp(prefix=".server.", suffix=".tmp", dir=data_dir)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(asdict(info), f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def read_server_file(data_dir: Path) -> RunningServer | None:
    """The recorded server, or None when the file is missing or not a valid record."""
    try:
        data = json.loads(server_file(data_dir).read_text(encoding="utf-8"))
        return RunningServer(
            pid=int(data["pid"]), port=int(data["port"]), url=str(data["url"]),
            token=str(data["token"]),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def remove_server_file(data_dir: Path, *, pid: int | None = None) -> None:
    """Remove ``server.json`` — only our own record when ``pid`` is given."""
    if pid is not None:
        current = read_server_file(data_dir)
        if current is not None and current.pid != pid:
            return
    server_file(data_dir).unlink(missing_ok=True)


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def answers_health(info: RunningServer, timeout: float = 2.0) -> bool:
    """Does the recorded server answer ``/api/health`` with its token? (stdlib: no import cost)"""
    conn = http.client.HTTPConnection("127.0.0.1", info.port, timeout=timeout)
    try:
        conn.request(
            "GET", "/api/health",
            headers={"Authorization": f"Bearer {info.token}", "Host": f"127.0.0.1:{info.port}"},
        )
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


def live_server(data_dir: Path) -> RunningServer | None:
    info = read_server_file(data_dir)
    if info is None or not pid_alive(info.pid) or not answers_health(info):
        return None
    return info


def wait_for_live_server(data_dir: Path, timeout: float) -> RunningServer | None:
    """Poll for the other instance's server (it may still be starting when we arrive)."""
    deadline = time.monotonic() + timeout
    while True:
        info = live_server(data_dir)
        if info is not None or time.monotonic() >= deadline:
            return info
        time.sleep(0.05)


class InstanceLock:
    """The single-instance lock of a data dir; released by the OS if the process dies."""

    def __init__(self, data_dir: Path) -> None:
        make_private_dir(data_dir)
        self._lock = FileLock(str(data_dir / LOCK_FILE), thread_local=False)

    def try_acquire(self) -> bool:
        try:
            self._lock.acquire(timeout=0)
        except Timeout:
            return False
        return True

    def release(self) -> None:
        if self._lock.is_locked:
            self._lock.release()
