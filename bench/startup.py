"""Start-up time: process start -> first byte of an authorised ``GET /api/health``.

Runs ``python -m studyhall --no-window`` in a fresh data dir several times and, interleaved
with it, the baseline: a bare Starlette app with one ``/api/health`` route served by uvicorn
(``bench/bare_starlette.py``), started the same way (a child process, timed from spawn to the
first 200). Prints each run, both medians and their ratio. Targets: the ratio at most 2.0 (robust
to a loaded machine: both run under the same load) and Studyhall under 1.0 s.
Usage: ``python bench/startup.py [runs]``.
Also prints the child's CPU time at that moment (Linux): on a busy machine wall time grows with
the load, while CPU time shows what start-up itself costs. And, for Studyhall, start to the first
answer of ``GET /api/chats`` right after (``ready``): the app built and started (it is built
behind the first health answer, server/boot.py) and the chats route group loaded.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_S = 1.0
TARGET_RATIO = 2.0
STUDYHALL = ("-m", "studyhall", "--no-window")
BARE = (str(Path(__file__).resolve().parent / "bare_starlette.py"),)
TIMEOUT_S = 30.0


def _first_byte(port: int, token: str, path: str = "/api/health") -> bool:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT_S)
    try:
        conn.request("GET", path, headers={"Authorization": f"Bearer {token}"})
        response = conn.getresponse()  # returns once the status line (first bytes) arrived
        return response.status == 200
    except OSError:
        return False
    finally:
        conn.close()


def _cpu_seconds(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def one_run(args: tuple[str, ...] = STUDYHALL) -> tuple[float, float | None, float | None]:
    with tempfile.TemporaryDirectory(prefix="studyhall-bench-") as tmp:
        data = Path(tmp)
        env = {**os.environ, "STUDYHALL_DATA_DIR": tmp, "STUDYHALL_TESTING": "1"}
        # A real install has its bytecode cached; without this every run would recompile
        # the whole package (the warm-up run writes the cache).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        start = time.perf_counter()
        # The bare app takes its data dir as an argument (it reads no environment).
        argv = [sys.executable, *args, *((tmp,) if args == BARE else ())]
        proc = subprocess.Popen(
            argv, env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            while True:
                elapsed = time.perf_counter() - start
                if elapsed > TIMEOUT_S or proc.poll() is not None:
                    raise RuntimeError(f"{' '.join(args)} did not answer (exit {proc.poll()})")
                try:
                    info = json.loads((data / "server.json").read_text())
                except (OSError, ValueError):
                    time.sleep(0.002)
                    continue
                if _first_byte(int(info["port"]), str(info["token"])):
                    answered, cpu = time.perf_counter() - start, _cpu_seconds(proc.pid)
                    if args == BARE:
                        return answered, cpu, None
                    if not _first_byte(int(info["port"]), str(info["token"]), "/api/chats"):
                        raise RuntimeError("GET /api/chats failed")
                    return answered, cpu, time.perf_counter() - start
                time.sleep(0.002)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    one_run()  # warm the OS file cache and the bytecode cache; not counted
    one_run(BARE)
    times, cpus, bare_times, bare_cpus, readies = [], [], [], [], []
    for i in range(runs):
        # Interleaved, so both see the same load on a shared machine.
        bare, bare_cpu, _ = one_run(BARE)
        t, cpu, ready = one_run()
        bare_times.append(bare)
        times.append(t)
        readies.append(ready or 0.0)
        if cpu is not None and bare_cpu is not None:
            cpus.append(cpu)
            bare_cpus.append(bare_cpu)
        print(f"run {i + 1}: {t:.3f} s" + (f" (cpu {cpu:.2f} s)" if cpu is not None else "")
              + f", ready {ready or 0.0:.3f} s; bare Starlette+uvicorn {bare:.3f} s"
              + (f" (cpu {bare_cpu:.2f} s)" if bare_cpu is not None else ""))
    median = statistics.median(times)
    bare_median = statistics.median(bare_times)
    verdict = "OK" if median < TARGET_S else "SLOW"
    print(f"startup median over {runs} runs: {median:.3f} s (target < {TARGET_S:.1f} s) {verdict}")
    print(f"bare Starlette+uvicorn median: {bare_median:.3f} s")
    print(f"ready (first /api/chats answered) median: {statistics.median(readies):.3f} s")
    ratio = median / bare_median
    verdict = "OK" if ratio <= TARGET_RATIO else "SLOW"
    print(f"ratio studyhall / bare: {ratio:.2f}x (target <= {TARGET_RATIO:.1f}x) {verdict}")
    if cpus:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        cpu, bare_cpu = statistics.median(cpus), statistics.median(bare_cpus)
        print(f"child cpu median: {cpu:.3f} s, bare {bare_cpu:.3f} s ({cpu / bare_cpu:.2f}x); "
              f"load average {load:.2f} on {os.cpu_count()} cpus")
    return 0


if __name__ == "__main__":
    sys.exit(main())
