"""kill -9 mid-answer, over a live socket: the Ask conversation survives the crash.

The first server is the production app whose scripted answerer trickles its text and never
finishes (``tests.support.slow_ask_server``); the test reads the answer's first events, SIGKILLs
the server, and restarts the real ``python -m studyhall --no-window`` on the same data dir. The
conversation is there (not a 404) with the question, its passages and the words the learner had
read, marked cut off — and a new question in it still works.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from studyhall.core.agents.loop import CHECKPOINT_CHARS
from studyhall.core.contracts.asks import CUT_OFF
from studyhall.server.instance import read_server_file

from tests.support.ask_window import write_course
from tests.support.server import child_env
from tests.support.session_api import parse_sse, write_script

ROOT = Path(__file__).resolve().parents[2]
THREAD = "ask_0123456789abcdef"
GRADES = {"json": {"grades": [{"n": 1, "grade": "answers"}, {"n": 2, "grade": "related"}]}}
ANSWER = ("Mark and sweep works in two phases: it marks every object reachable from the roots "
          "[1], then the sweep phase frees every unmarked object [1]. ") * 12  # ~1,700 chars
SCRIPT = {"reranker": [GRADES, GRADES], "answerer": [{"text": ANSWER}, {"text": "Cycles [1]."}]}
# The report's crash came after 36 events; here the kill waits for two checkpoints' worth of
# text too (the scripted stream sends a few characters per event), so one is surely on disk.
EVENTS_BEFORE_KILL = 36
CHARS_BEFORE_KILL = 2 * CHECKPOINT_CHARS


@contextmanager
def server(cmd: list[str], env: dict[str, str], data_dir: Path) -> Iterator[httpx.Client]:
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 90  # generous: a cold start on a loaded 2-core box
        while (info := read_server_file(data_dir)) is None or info.pid != proc.pid:
            if proc.poll() is not None:
                out = proc.stdout.read().decode() if proc.stdout else ""
                pytest.fail(f"the server exited with {proc.returncode}: {out[-2000:]}")
            assert time.monotonic() < deadline, "the server did not start in time"
            time.sleep(0.05)
        with httpx.Client(base_url=info.url, timeout=60,
                          headers={"Authorization": f"Bearer {info.token}"}) as client:
            client.proc = proc  # type: ignore[attr-defined]
            yield client
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def import_course(client: httpx.Client, path: Path) -> None:
    run = client.post("/api/graph/import", json={"path": str(path)}).json()
    deadline = time.monotonic() + 120
    while client.get(f"/api/graph/import/{run['run_id']}").json()["status"] == "running":
        assert time.monotonic() < deadline, "the import did not finish"
        time.sleep(0.05)


def read_then_kill(client: httpx.Client, body: dict[str, Any]) -> list[tuple[str, Any]]:
    """POST the question, read SSE events until enough of the answer arrived, then SIGKILL."""

    def enough() -> bool:
        text = sum(len(d["text"]) for n, d in seen if n == "text-delta")
        return len(seen) >= EVENTS_BEFORE_KILL and text >= CHARS_BEFORE_KILL

    seen: list[tuple[str, Any]] = []
    with client.stream("POST", "/api/ask", json=body) as response:
        assert response.status_code == 200
        buffer = ""
        for chunk in response.iter_text():
            buffer += chunk
            if "\n\n" in buffer:
                seen = parse_sse(buffer.rsplit("\n\n", 1)[0] + "\n\n")
            if enough() or any(n in ("finish", "error") for n, _ in seen):
                break
        client.proc.send_signal(signal.SIGKILL)  # type: ignore[attr-defined]
        client.proc.wait(timeout=10)  # type: ignore[attr-defined]
    return seen


@pytest.mark.slow
def test_kill_mid_answer_then_restart_shows_the_exchange_cut_off(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    course = write_course(tmp_path / "Course")
    script = write_script(tmp_path / "script.json", SCRIPT)
    env = child_env(data_dir, STUDYHALL_SCRIPT=str(script))
    question = "How does mark and sweep work?"

    slow = [sys.executable, "-m", "tests.support.slow_ask_server"]
    with server(slow, env, data_dir) as client:
        import_course(client, course)
        seen = read_then_kill(client, {"question": question, "thread_id": THREAD})
    names = [n for n, _ in seen]
    assert names[0] == "sources" and "finish" not in names and "error" not in names
    sources = seen[0][1]["sources"]
    assert sources, "the question found no passages: nothing to cite"
    read = "".join(d["text"] for n, d in seen if n == "text-delta")
    assert len(read) >= CHARS_BEFORE_KILL  # at least one checkpoint is owed

    restart = [sys.executable, "-m", "studyhall", "--no-window"]
    with server(restart, env, data_dir) as client:
        response = client.get(f"/api/asks/{THREAD}")
        assert response.status_code == 200, response.text  # was a 404: lost in the crash
        (x,) = response.json()["exchanges"]
        assert x["question"] == question and x["sources"] == sources
        assert (x["complete"], x["cut_off"], x["answered"], x["reason"]) == (
            False, True, False, CUT_OFF)
        # What the learner had read, to the last checkpoint: never more than was sent.
        assert read.startswith(x["answer"]) and len(x["answer"]) >= CHECKPOINT_CHARS
        listed = client.get("/api/asks").json()["threads"]
        assert [(t["id"], t["title"], t["questions"]) for t in listed] == [(THREAD, question, 1)]
