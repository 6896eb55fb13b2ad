"""Build the real app for a test, and start real ``studyhall`` child processes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient
from studyhall.server.app import build_runtime, build_services
from studyhall.server.config import Config, load_config
from studyhall.server.instance import RunningServer, read_server_file
from studyhall.server.services import Services
from studyhall.server.web import build_app

TEST_PORT = 48123  # TestClient binds nothing; the guard just needs a port to expect


def make_config(**overrides: Any) -> Config:
    overrides.setdefault("port", TEST_PORT)
    return load_config(**overrides)


def api_client(
    services: Services | None = None, *, config: Config | None = None, authorized: bool = True
) -> TestClient:
    """A TestClient on the app's own origin, carrying the launch token unless told not to."""
    config = config or (services.config if services is not None else make_config())
    app = build_app(config, build_runtime(services or build_services(config)))
    headers = {"Authorization": f"Bearer {config.token}"} if authorized else {}
    return TestClient(app, base_url=f"http://127.0.0.1:{config.port}", headers=headers)


def child_env(data_dir: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("STUDYHALL_")}
    env.update(
        STUDYHALL_DATA_DIR=str(data_dir), STUDYHALL_TESTING="1", PYTHONDONTWRITEBYTECODE="1",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


@dataclass
class Child:
    proc: subprocess.Popen[str]
    data_dir: Path

    def output(self) -> str:
        out, err = self.proc.communicate(timeout=30)
        return out + err

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        return self.proc.returncode


def start_child(
    data_dir: Path, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> Child:
    proc = subprocess.Popen(
        [sys.executable, "-m", "studyhall", *args],
        env=env or child_env(data_dir), cwd=cwd, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    return Child(proc, data_dir)


def wait_for_server(child: Child, timeout: float = 30.0) -> RunningServer:
    """Poll server.json until the child's own server is recorded there."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        info = read_server_file(child.data_dir)
        if info is not None and info.pid == child.proc.pid:
            return info
        if child.proc.poll() is not None:
            raise AssertionError(f"studyhall exited early ({child.proc.returncode}):\n{child.output()}")
        time.sleep(0.02)
    raise AssertionError("studyhall did not write server.json in time")


@contextmanager
def running_child(data_dir: Path, *args: str, **kwargs: Any) -> Iterator[tuple[Child, RunningServer]]:
    child = start_child(data_dir, "--no-window", *args, **kwargs)
    try:
        yield child, wait_for_server(child)
    finally:
        child.stop()


def get(info: RunningServer, path: str, token: str | None = None) -> tuple[int, Any]:
    """A plain HTTP GET against a real child server (stdlib only)."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", info.port, timeout=10)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    body = response.read()
    conn.close()
    try:
        return response.status, json.loads(body)
    except ValueError:
        return response.status, body


def imported_over_http(client: Any, path: Path) -> dict[str, Any]:
    """Import ``path`` through the HTTP API and wait for the run: its record, which must be done."""
    run_id = client.post("/api/graph/import", json={"path": str(path)}).json()["run_id"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        run = client.get(f"/api/graph/import/{run_id}").json()
        if run["status"] != "running":
            assert run["status"] == "done", run
            return run
        time.sleep(0.05)
    raise AssertionError("the import did not finish")
