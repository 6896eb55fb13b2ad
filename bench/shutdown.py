"""Shutdown time: SIGTERM -> the server process has exited.

Two cases, each in a fresh data dir, several runs, median printed (target: under 2 s):
- ``idle``: ``python -m studyhall --no-window`` with nothing running;
- ``busy``: the production app with a model that never answers the researcher, extractor and
  labeler (``tests/support/stall_server.py``), so a job, an extraction run, a model-mode notes
  import and an after-turn title are all in flight, and ``/api/activity/stream`` is held open.
Usage: ``.venv/bin/python bench/shutdown.py [runs]``.
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 2.0
SCRIPT = {
    "prober": [{"tool_calls": [{"name": "probe_done", "id": "probe", "arguments": {
        "floor": "arrays", "ceiling": "trees", "goal": "heaps", "summary": "keen"}}]}],
    "teacher": [{"text": "Let me get some help with that.", "tool_calls": [
        {"name": "research", "arguments": {"question": "Why arrays?"}, "id": "c1"}]},
        {"text": "Meanwhile: a heap is a complete binary tree."}],
}


def _env(data: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("STUDYHALL_")}
    env.update(STUDYHALL_DATA_DIR=str(data), STUDYHALL_TESTING="1", PYTHONPATH=str(ROOT), **extra)
    return env


def _wait_for_server(data: Path, proc: subprocess.Popen[bytes]) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited early with code {proc.returncode}")
        try:
            info: dict[str, Any] = json.loads((data / "server.json").read_text())
            if info.get("pid") == proc.pid:
                return info
        except (OSError, ValueError):
            pass
        time.sleep(0.02)
    raise SystemExit("the server did not start in time")


def _sigterm(proc: subprocess.Popen[bytes]) -> float:
    start = time.perf_counter()
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)
    return time.perf_counter() - start


def idle_run() -> float:
    with tempfile.TemporaryDirectory(prefix="studyhall-bench-") as tmp:
        data = Path(tmp)
        proc = subprocess.Popen([sys.executable, "-m", "studyhall", "--no-window"],
                                env=_env(data), stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        info = _wait_for_server(data, proc)
        httpx.get(f"{info['url']}/api/health",
                  headers={"Authorization": f"Bearer {info['token']}"}).raise_for_status()
        return _sigterm(proc)


def _vault(root: Path, notes: int = 12) -> Path:
    for i in range(notes):
        folder = root / f"topic{i % 3}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"Note {i:02d}.md").write_text(
            f"# Note {i}\n\nNote {i} explains heaps and links to [[Note {(i + 1) % notes:02d}]].\n"
            f"- A heap keeps its smallest key at the root, note {i}.\n", encoding="utf-8")
    return root


def busy_run() -> float:
    with tempfile.TemporaryDirectory(prefix="studyhall-bench-") as tmp:
        base = Path(tmp)
        data, script = base / "data", base / "script.json"
        script.write_text(json.dumps(SCRIPT))
        vault = _vault(base / "Vault")
        env = _env(data, STUDYHALL_SCRIPT=str(script), STALL_ROLES="researcher,extractor,labeler")
        proc = subprocess.Popen([sys.executable, "-m", "tests.support.stall_server"], env=env,
                                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        info = _wait_for_server(data, proc)
        headers = {"Authorization": f"Bearer {info['token']}"}
        with httpx.Client(base_url=info["url"], headers=headers, timeout=30) as client:
            chat_id = client.post("/api/chats", json={"topic": "heaps"}).json()["id"]
            client.post(f"/api/chats/{chat_id}/messages", json={"text": "Teach me heaps"})
            client.post(f"/api/chats/{chat_id}/extract").raise_for_status()
            client.post("/api/graph/import", json={"path": str(vault), "mode": "model"})

            def hold_stream() -> None:
                try:
                    with httpx.stream("GET", f"{info['url']}/api/activity/stream",
                                      headers=headers, timeout=60) as r:
                        for _ in r.iter_lines():
                            pass
                except httpx.HTTPError:
                    pass

            threading.Thread(target=hold_stream, daemon=True).start()
            deadline = time.monotonic() + 30
            while True:
                summary = client.get("/api/activity").json()["summary"]
                if (summary["jobs"], summary["extractions"], summary["imports"]) == (1, 1, 1):
                    break
                if time.monotonic() > deadline:
                    raise SystemExit(f"the work did not start: {summary}")
                time.sleep(0.05)
        return _sigterm(proc)


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    idle_run()  # warm the OS file cache; not counted
    for name, one in (("idle", idle_run), ("busy", busy_run)):
        times = []
        for i in range(runs):
            t = one()
            times.append(t)
            print(f"{name} run {i + 1}: {t:.3f} s")
        median = statistics.median(times)
        verdict = "OK" if median < TARGET_S else "SLOW"
        print(f"shutdown ({name}) median over {runs} runs: {median:.3f} s "
              f"(target < {TARGET_S:.1f} s) {verdict}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average {load:.2f} on {os.cpu_count()} cpus")
    return 0


if __name__ == "__main__":
    sys.exit(main())
