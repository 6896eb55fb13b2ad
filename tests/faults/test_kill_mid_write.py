"""SIGKILL a writer at random instants, 200 times: nothing acknowledged is lost, every file parses.

Each trial forks a writer from this (pre-imported) process. The writer opens fresh stores on the
same data dir — exactly what a restarted app does — continues where the files end, and loops:
save a message to a chat (atomic JSON), append a batch of ledger records (JSONL), bump a job
(atomic JSON upsert), now and then create a new chat. After each call returns it tells the
parent over a pipe. The parent kills it at a random moment, then checks every acknowledged write
is on disk and every file reads back.
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
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from studyhall.adapters.store import (
    JsonChatStore,
    JsonJobStore,
    JsonlGraphStore,
    JsonlLedger,
    sweep_temp_files,
)
from studyhall.core.contracts.graph import EdgeAdded

from tests.support.records import at, chat, edge, job, message

pytestmark = pytest.mark.slow

TRIALS = 200
MESSAGES_PER_CHAT = 12


def _writer(data: Path, ack: int, seed: int, slow_disk: bool) -> None:
    """The child: a restarted writer that continues the files and acks every returned write."""
    rng = random.Random(seed)
    real_write = os.write
    if slow_disk:
        # A slow disk: the OS writes fewer bytes than asked (POSIX allows it) and each piece
        # takes a while, so a kill lands mid-write often enough to tear ledger lines and temps.
        def slow_write(fd: int, data: bytes) -> int:
            time.sleep(0.00005)
            return real_write(fd, bytes(data[:512]))

        os.write = slow_write  # type: ignore[assignment]
    chats = JsonChatStore(data / "chats")
    graph = JsonlGraphStore(data / "graph")
    jobs = JsonJobStore(data / "jobs")

    def tell(line: str) -> None:
        real_write(ack, line.encode() + b"\n")  # < PIPE_BUF: atomic

    existing = graph.edges().records
    next_edge = max((int(r.id[1:]) for r in existing), default=-1) + 1
    if existing:
        graph.append_edges([existing[-1]])  # a replay after restart: readers must ignore it
    summaries = chats.list()
    chat_no = max((int(s.id.split("_")[1]) for s in summaries), default=-1)
    if chat_no < 0:
        chat_no = 0
        chats.create(chat("chat_00000"))
        tell("N chat_00000")
    current = f"chat_{chat_no:05d}"
    count = len(chats.get(current).messages)
    runs = (jobs.get("job_1").attempts + 1) if jobs.get("job_1") else 0

    while True:
        if count >= MESSAGES_PER_CHAT:
            chat_no += 1
            current, count = f"chat_{chat_no:05d}", 0
            chats.create(chat(current, minute=chat_no))
            tell(f"N {current}")
        mid = f"m{count:03d}"
        text = f"{current}/{mid} " + "x" * rng.randint(50, 3000)
        chats.save_messages(current, [message(mid, text)], at(count))
        tell(f"M {current} {mid}")
        count += 1
        big = slow_disk and rng.random() < 0.5  # several 512-byte pieces: a wide target
        n = rng.randint(15, 30) if big else rng.randint(1, 8)
        tell("B")  # about to append: not an acknowledgement, a hint for the parent's aim
        graph.append_edges([edge(f"e{next_edge + i:07d}") for i in range(n)])
        tell(f"E {next_edge} {next_edge + n - 1}")
        next_edge += n
        jobs.save(job("job_1").model_copy(update={"attempts": runs, "updated_at": at(runs)}))
        tell(f"J {runs}")
        runs += 1


def _spawn(data: Path, seed: int, slow_disk: bool) -> tuple[int, int]:
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: never return into pytest
        code = 0
        try:
            os.close(read_end)
            _writer(data, write_end, seed, slow_disk)
        # Every failure, SystemExit and KeyboardInterrupt too, is reported to the parent: the
        # forked child must never unwind into pytest, and exits through os._exit below.
        except BaseException:  # noqa: BLE001
            os.write(
                write_end, ("X " + traceback.format_exc().replace("\n", " | ") + "\n").encode()
            )
            code = 1
        finally:
            os._exit(code)
    os.close(write_end)
    return pid, read_end


@dataclass
class Acked:
    chats: set[str] = field(default_factory=set)
    messages: dict[str, set[str]] = field(default_factory=dict)
    edges: int = -1  # highest acknowledged edge number (batches are acked in order)
    job_runs: int = -1

    def take(self, line: str) -> None:
        kind, *rest = line.split(" ")
        if kind == "B":
            return
        if kind == "X":
            raise AssertionError(f"the writer failed: {line}")
        if kind == "N":
            self.chats.add(rest[0])
        elif kind == "M":
            self.messages.setdefault(rest[0], set()).add(rest[1])
        elif kind == "E":
            self.edges = max(self.edges, int(rest[1]))
        elif kind == "J":
            self.job_runs = max(self.job_runs, int(rest[0]))


def _run_trial(data: Path, rng: random.Random, acked: Acked, slow_disk: bool) -> None:
    pid, fd = _spawn(data, rng.randrange(1 << 30), slow_disk)
    # Let it acknowledge a few writes, then kill it: at a random instant, or (every other trial)
    # aimed at the ledger append that follows an "about to append" hint.
    want = rng.randint(0, 8)
    aim = rng.random() < 0.5
    buf = b""
    while buf.count(b"\n") < want or (aim and b"B\n" not in buf.split(b"\n", want)[-1]):
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        buf += chunk
    time.sleep(rng.random() * 0.003)  # sleep, not spin: the child needs the CPU to get there
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)  # reaped, so its pid is dead for the temp-file sweep
    while chunk := os.read(fd, 65536):
        buf += chunk
    os.close(fd)
    for line in buf.decode().splitlines():
        acked.take(line)


def _check(data: Path, acked: Acked, ledger: JsonlLedger[EdgeAdded], kills: int) -> None:
    chats = JsonChatStore(data / "chats")
    for path in (data / "chats").glob("*.json"):
        assert chats.get(path.stem) is not None  # every chat file parses
    for cid in acked.chats:
        assert chats.get(cid) is not None, f"acknowledged chat {cid} is missing"
    for cid, mids in acked.messages.items():
        have = {m.id for m in chats.get(cid).messages}
        assert mids <= have, f"acknowledged messages lost in {cid}: {sorted(mids - have)}"
    got = ledger.read()
    numbers = sorted(int(r.id[1:]) for r in got.records)
    assert numbers == list(range(len(numbers))), "ledger records are not contiguous"
    assert (numbers[-1] if numbers else -1) >= acked.edges, "an acknowledged ledger batch is lost"
    # Only kills tear lines, at most one each; a torn line is bad JSON, never a wrong shape.
    assert got.skipped <= kills
    assert all("not valid JSON" in r or "torn last line" in r for r in got.skipped_reasons)
    if acked.job_runs >= 0:
        saved = JsonJobStore(data / "jobs").get("job_1")
        assert saved is not None and saved.attempts >= acked.job_runs


@pytest.fixture
def data() -> Iterator[Path]:
    """A data dir in RAM when there is one: a SIGKILL does not lose the page cache, so fsync
    latency (which a busy disk makes 1-10 ms) adds nothing here but minutes."""
    base = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    folder = Path(tempfile.mkdtemp(prefix="studyhall-kill-", dir=base))
    try:
        yield folder / "data"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_sigkill_at_random_moments_loses_nothing_acknowledged(data: Path) -> None:
    rng = random.Random(20250301)
    acked = Acked()
    incremental = JsonlLedger(data / "graph" / "edges.jsonl", EdgeAdded)
    torn_lines = torn_temps = 0  # evidence that kills really landed mid-write
    started = time.monotonic()
    for trial in range(1, TRIALS + 1):
        _run_trial(data, rng, acked, slow_disk=trial % 2 == 0)
        ledger = data / "graph" / "edges.jsonl"
        torn_lines += ledger.exists() and not ledger.read_bytes().endswith(b"\n")
        torn_temps += any((data / d).glob(".*.tmp") for d in ("chats", "jobs"))
        _check(data, acked, incremental, trial)
        if trial % 40 == 0:  # the incremental reader agrees with a cold one
            cold = JsonlLedger(data / "graph" / "edges.jsonl", EdgeAdded).read()
            warm = incremental.read()
            assert (cold.records, cold.skipped, cold.replayed) == (
                warm.records,
                warm.skipped,
                warm.replayed,
            )
    elapsed = time.monotonic() - started

    # A last writer, not killed, continues cleanly from whatever the kills left behind.
    chats, graph = JsonChatStore(data / "chats"), JsonlGraphStore(data / "graph")
    before = graph.edges()
    last = max(int(r.id[1:]) for r in before.records)
    graph.append_edges([edge(f"e{last + 1:07d}")])
    newest = chats.list()[0].id
    chats.save_messages(newest, [message("m_final")], at(999))
    after = JsonlGraphStore(data / "graph").edges()
    assert after.records[-1].id == f"e{last + 1:07d}"
    assert after.skipped <= TRIALS and (data / "graph" / "edges.jsonl").read_bytes().endswith(b"\n")
    assert after.replayed >= TRIALS // 2  # each restart replayed its last record; all ignored
    for folder in ("chats", "jobs", "graph"):
        sweep_temp_files(data / folder)
        assert not list((data / folder).glob(".*.tmp")), f"temp files left in {folder}"
    assert len(acked.chats) > 3 and acked.edges > 200, "the kills landed too early to test much"
    assert torn_lines >= 2 and torn_temps >= 2, (
        f"too few kills landed mid-write ({torn_lines} torn lines, {torn_temps} temp files)"
    )
    assert elapsed < 60, f"{TRIALS} trials took {elapsed:.1f}s"
