"""SIGKILL an Ask answer's checkpoint writer at random instants: the conversation file always
parses, and holds at least the last checkpoint the writer was told was written — a kill in the
middle of a write leaves the previous checkpoint, never a torn or empty file.

Each trial forks a writer that opens a fresh ``JsonAskStore`` on the same folder (what a
restarted app does), reads where the answer ended, and keeps checkpointing it 300 characters
longer (incomplete), acknowledging each returned write over a pipe. The disk is made slow (short
writes with a pause) so that kills land inside writes.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import tempfile
import time
import traceback
from collections.abc import Iterator
from pathlib import Path

import pytest
from studyhall.adapters.store import JsonAskStore, sweep_temp_files
from studyhall.core.agents.loop import CHECKPOINT_CHARS
from studyhall.core.contracts.asks import CUT_OFF, AskExchange

from tests.support.records import at

pytestmark = pytest.mark.slow

TRIALS = 40
THREAD = "ask_0123456789abcdef"
# Passages big enough that one write takes many short writes on the slow disk.
SOURCES = [{"n": n, "link": f"gc.vtt#t={n}", "text": "mark and sweep " * 200} for n in range(1, 9)]
WORDS = "the sweep phase frees every unmarked object and returns its memory " * 400


def _exchange(chars: int) -> AskExchange:
    return AskExchange(id="exchange_1", question="How does mark and sweep work?",
                       asked_at=at(0), case="MATCH", sources=SOURCES, answer=WORDS[:chars],
                       complete=False, cut_off=True, reason=CUT_OFF)


def _writer(folder: Path, ack: int) -> None:
    real_write = os.write

    def slow_write(fd: int, data: bytes) -> int:
        time.sleep(0.00005)
        return real_write(fd, bytes(data[:512]))

    os.write = slow_write  # type: ignore[assignment]
    store = JsonAskStore(folder)
    kept = store.get(THREAD)
    chars = len(kept.exchanges[0].answer) if kept else 0
    while chars + CHECKPOINT_CHARS <= len(WORDS):
        chars += CHECKPOINT_CHARS
        store.put_exchange(THREAD, _exchange(chars), at(chars))
        real_write(ack, f"{chars}\n".encode())  # < PIPE_BUF: atomic


def _spawn(folder: Path) -> tuple[int, int]:
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child never returns into pytest
        code = 0
        try:
            os.close(read_end)
            _writer(folder, write_end)
        except BaseException:  # noqa: BLE001 - every failure is reported, then os._exit
            os.write(write_end, ("X " + traceback.format_exc().replace("\n", " | ") + "\n").encode())
            code = 1
        finally:
            os._exit(code)
    os.close(write_end)
    return pid, read_end


@pytest.fixture
def folder() -> Iterator[Path]:
    base = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None  # fsync costs nothing here
    root = Path(tempfile.mkdtemp(prefix="studyhall-ask-kill-", dir=base))
    try:
        yield root / "asks"
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_a_kill_mid_checkpoint_leaves_the_previous_checkpoint(folder: Path) -> None:
    rng = random.Random(20261202)
    acked = 0
    torn_temps = 0  # evidence that kills really landed inside a write
    for _ in range(TRIALS):
        pid, fd = _spawn(folder)
        want = rng.randint(0, 3)
        buf = b""
        while buf.count(b"\n") < want and (chunk := os.read(fd, 4096)):
            buf += chunk
        time.sleep(rng.random() * 0.01)  # sleep, not spin: the child needs the CPU
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        while chunk := os.read(fd, 65536):
            buf += chunk
        os.close(fd)
        for line in buf.decode().splitlines():
            assert not line.startswith("X"), f"the writer failed: {line}"
            acked = max(acked, int(line))
        torn_temps += any(folder.glob(".*.tmp"))

        kept = JsonAskStore(folder).get(THREAD)  # parses: never a torn file
        if acked:
            assert kept is not None, "an acknowledged checkpoint is missing"
            (only,) = kept.exchanges
            assert len(only.answer) >= acked, "an acknowledged checkpoint was lost"
            assert WORDS.startswith(only.answer) and only.sources == SOURCES
            assert (only.complete, only.cut_off) == (False, True)
    assert acked > 0
    assert torn_temps > 0, "no kill landed inside a write: the test proved nothing"
    sweep_temp_files(folder)
    assert not list(folder.glob(".*.tmp"))
