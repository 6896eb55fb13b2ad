"""Benchmark: POST a learner message -> first SSE byte, against a live server with a scripted model.

Starts the real app (``python -m studyhall --no-window``) in a child process with a fresh data
dir and a ``STUDYHALL_SCRIPT``, warms it up, then times N turns over a real socket and prints
the median (target < 30 ms) and the whole-turn median. Run: ``.venv/bin/python bench/turn.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

TARGET_MS = 30.0


def _wait_for_server(data_dir: Path, proc: subprocess.Popen[bytes], timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    path = data_dir / "server.json"
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited early with code {proc.returncode}")
        if path.exists():
            try:
                return json.loads(path.read_text())
            except ValueError:
                pass  # being written
        time.sleep(0.05)
    raise SystemExit("the server did not start in time")


def _durable_write_ms(chat_file: Path, n: int = 20) -> float:
    """Median time of the crash-safe write the turn does before its first byte (same size)."""
    from studyhall.adapters.store.atomic import atomic_write_bytes

    data = chat_file.read_bytes()
    probe = chat_file.with_name("bench_probe.json")
    times = []
    for _ in range(n):
        start = time.perf_counter()
        atomic_write_bytes(probe, data)
        times.append((time.perf_counter() - start) * 1000)
    probe.unlink()
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    runs = args.runs

    with tempfile.TemporaryDirectory(prefix="studyhall-bench-") as tmp:
        data_dir = Path(tmp) / "data"
        script = Path(tmp) / "script.json"
        # One prober answer per turn (+ warm-up); a labeler answer for the session's title.
        turns = runs + 3
        script.write_text(json.dumps({
            "prober": [{"text": "Hello! Let's find out where you are."}] * turns,
            "labeler": [{"text": "Benchmark session"}] * turns,
        }))
        env = {**os.environ, "STUDYHALL_DATA_DIR": str(data_dir), "STUDYHALL_SCRIPT": str(script)}
        env.pop("STUDYHALL_TESTING", None)
        proc = subprocess.Popen(
            [sys.executable, "-m", "studyhall", "--no-window"], env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            info = _wait_for_server(data_dir, proc)
            headers = {"Authorization": f"Bearer {info['token']}"}
            with httpx.Client(base_url=info["url"], headers=headers, timeout=30) as client:
                first_byte: list[float] = []
                whole: list[float] = []
                # One session, like a learner's conversation; a short pause between messages
                # lets the after-turn seams (title, hooks) finish, as a learner's typing would.
                chat_id = client.post("/api/chats", json={"topic": "bench"}).json()["id"]
                for i in range(runs + 3):
                    time.sleep(0.1)
                    start = time.perf_counter()
                    with client.stream(
                        "POST", f"/api/chats/{chat_id}/messages", json={"text": "hi"}
                    ) as response:
                        response.raise_for_status()
                        chunks = response.iter_raw()
                        next(chunks)
                        t_first = time.perf_counter() - start
                        body = b"".join(chunks)
                        t_all = time.perf_counter() - start
                    if b"event: finish" not in body:
                        raise SystemExit(f"turn {i} did not finish: {body[-300:]!r}")
                    if i >= 3:  # the first turns import litellm and warm caches
                        first_byte.append(t_first * 1000)
                        whole.append(t_all * 1000)
            disk = _durable_write_ms(data_dir / "chats" / f"{chat_id}.json")
        finally:
            proc.terminate()
            proc.wait(timeout=15)

    median = statistics.median(first_byte)
    print(f"turn first SSE byte: median {median:.1f} ms over {runs} runs "
          f"(p90 {statistics.quantiles(first_byte, n=10)[-1]:.1f} ms; target < {TARGET_MS:.0f} ms)")
    print(f"whole scripted turn: median {statistics.median(whole):.1f} ms")
    # The learner's message is saved durably (fsync) before the first byte: the disk's floor.
    print(f"of which one durable chat write on this disk: median {disk:.1f} ms; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cpus")
    print(f"ratio to target: {median / TARGET_MS:.2f}")
    return 0 if median < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
