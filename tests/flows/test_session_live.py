"""Through a live uvicorn socket: kill the server mid-stream (SIGKILL), restart, carry on.

The first server is the production app with a model that stalls after showing a question;
the restart is the real ``python -m studyhall --no-window``. After the restart the record
holds the learner's message and every completed part, the pending question can be answered,
and the next turn works — all over HTTP, scripted, with no key.
"""

from __future__ import annotations

import json
import os
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

from tests.support.session_api import parse_sse, write_script

ROOT = Path(__file__).resolve().parents[2]
QUIZ = {"questions": [{"prompt": "Is every tree a graph?", "choices": ["yes", "no"],
                       "correct": [0]}]}
PLAN = {"title": "Trees", "mermaid": "graph TD\n  A[Graphs] --> B[Trees]"}
SCRIPT = {
    "prober": [
        {"text": "Hi! Let's see where you are."},
        {"text": "Warm-up question:", "tool_calls": [
            {"name": "quiz", "arguments": QUIZ, "id": "probe_q"}]},
        {"tool_calls": [{"name": "probe_done", "id": "fin", "arguments": {
            "floor": "graphs", "ceiling": "trees", "goal": "trees", "summary": "ok"}}]},
    ],
    "teacher": [
        {"text": "Our plan:", "tool_calls": [{"name": "plan_init", "arguments": PLAN, "id": "p1"}]},
        {"text": "Trees are connected graphs without cycles."},
    ],
    "labeler": [{"text": "Trees"}, {"text": "Trees"}],
}


def _wait_for(data_dir: Path, proc: subprocess.Popen[bytes], timeout: float = 90) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    path = data_dir / "server.json"
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            out = proc.stdout.read().decode() if proc.stdout else ""
            pytest.fail(f"server exited with {proc.returncode}: {out[-2000:]}")
        try:
            info = json.loads(path.read_text())
            if info.get("pid") == proc.pid:
                return info
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    pytest.fail("the server did not start in time")


@contextmanager
def server(cmd: list[str], env: dict[str, str], data_dir: Path) -> Iterator[httpx.Client]:
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    try:
        info = _wait_for(data_dir, proc)
        with httpx.Client(base_url=info["url"], timeout=60,
                          headers={"Authorization": f"Bearer {info['token']}"}) as client:
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


def sse_post(client: httpx.Client, url: str, body: dict[str, Any]) -> list[tuple[str, Any]]:
    response = client.post(url, json=body)
    assert response.status_code == 200, response.text
    return parse_sse(response.text)


@pytest.mark.slow
def test_kill_mid_stream_then_restart_resumes_from_the_record(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    script = write_script(tmp_path / "script.json", SCRIPT)
    env = {**os.environ, "STUDYHALL_DATA_DIR": str(data_dir), "STUDYHALL_SCRIPT": str(script)}

    hang = [sys.executable, "-m", "tests.support.hang_server"]
    with server(hang, env, data_dir) as client:
        chat_id = client.post("/api/chats", json={"topic": "trees"}).json()["id"]
        first = sse_post(client, f"/api/chats/{chat_id}/messages", {"text": "hi"})
        assert first[-1][0] == "finish"

        seen: list[tuple[str, Any]] = []
        with client.stream("POST", f"/api/chats/{chat_id}/messages",
                           json={"text": "I'm ready"}) as response:
            assert response.status_code == 200
            buffer = ""
            for chunk in response.iter_text():
                buffer += chunk
                seen = parse_sse(buffer.rsplit("\n\n", 1)[0] + "\n\n") if "\n\n" in buffer else []
                if any(name == "tool-call" for name, _ in seen):
                    break
            # The question is on the learner's screen; the provider is still streaming.
            client.proc.send_signal(signal.SIGKILL)  # type: ignore[attr-defined]
            client.proc.wait(timeout=10)  # type: ignore[attr-defined]
        assert [n for n, _ in seen][-1] == "tool-call"
        assert "finish" not in [n for n, _ in seen]

    restart = [sys.executable, "-m", "studyhall", "--no-window"]
    with server(restart, env, data_dir) as client:
        chat = client.get(f"/api/chats/{chat_id}").json()
        assert chat["turn_running"] is False
        messages = chat["messages"]
        assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant"]
        assert messages[2]["parts"] == [{"type": "text", "text": "I'm ready"}]
        last = messages[3]["parts"]
        assert last[0] == {"type": "text", "text": "Warm-up question:"}
        assert last[1]["tool_call_id"] == "probe_q" and last[1]["state"] == "input-available"
        assert [p["tool_call_id"] for p in chat["pending"]] == ["probe_q"]

        # the pending question can still be answered, and the session carries on
        q = chat["pending"][0]["presented"]["questions"][0]
        events = sse_post(client, f"/api/chats/{chat_id}/answers", {
            "tool_call_id": "probe_q", "answer": {"choices": [[q["choices"].index("yes")]]}})
        assert events[0][0] == "tool-result"
        assert events[0][1]["output"]["results"][0]["verdict"] == "correct"
        assert [d["agent"] for n, d in events if n == "message-start"] == ["prober", "teacher"]
        assert events[-1] == ("finish", {"reason": "awaiting-answer", "phase": "plan",
                                         "pending": ["p1"]})

        events = sse_post(client, f"/api/chats/{chat_id}/answers",
                          {"tool_call_id": "p1", "answer": {"approve": True}})
        text = "".join(d["text"] for n, d in events if n == "text-delta")
        assert text == "Trees are connected graphs without cycles."
        assert events[-1] == ("finish", {"reason": "stop", "phase": "teach", "pending": []})
        assert client.get(f"/api/chats/{chat_id}").json()["plan"]["title"] == "Trees"
