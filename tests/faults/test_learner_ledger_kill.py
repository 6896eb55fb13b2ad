"""SIGKILL a writer of review grades at random instants: every acknowledged grade survives, the
ledger always reads (a torn line is skipped, a replayed grade ignored), and the card derived from
it is the one the surviving grades give.

Each trial forks a writer that opens the learner store on the same folder — what a restarted app
does — replays its last grade (readers must ignore it), then appends grades in small batches
through a slow disk (short writes), telling the parent after each append returns.
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
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from studyhall.adapters.store import JsonlLearnerStore
from studyhall.core.contracts.learner import GRADES, ReviewGraded
from studyhall.core.library.learner.cards import Graded, replay
from studyhall.core.library.learner.evidence import LearnerEvidence

pytestmark = pytest.mark.slow

TRIALS = 60
T0 = datetime(2025, 1, 1, 9, 0, tzinfo=UTC)


def grade(n: int) -> ReviewGraded:
    return ReviewGraded(id=f"rev_{n:06d}", node_id=f"n_{n % 3}", grade=GRADES[n % 4],
                        prompt_kind="cloze", at=T0 + timedelta(hours=n))


def _writer(root: Path, ack: int, seed: int) -> None:
    rng = random.Random(seed)
    real_write = os.write

    def slow_write(fd: int, data: bytes) -> int:  # a slow disk: short writes, each a while
        time.sleep(0.00005)
        return real_write(fd, bytes(data[:64]))

    os.write = slow_write  # type: ignore[assignment]
    store = JsonlLearnerStore(root)
    existing = store.grades().records
    following = max((int(r.id.split("_")[1]) for r in existing), default=-1) + 1
    if existing:
        store.append_grades([existing[-1]])  # a replay after restart
    while True:
        n = rng.randint(1, 4)
        real_write(ack, b"B\n")
        store.append_grades([grade(following + i) for i in range(n)])
        real_write(ack, f"G {following + n - 1}\n".encode())
        following += n


def _trial(root: Path, rng: random.Random) -> int:
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child never returns into pytest
        code = 0
        try:
            os.close(read_end)
            _writer(root, write_end, rng.randrange(1 << 30))
        except BaseException:  # noqa: BLE001 - the child reports any failure, then exits
            os.write(write_end, ("X " + traceback.format_exc().replace("\n", " | ")
                                 + "\n").encode())
            code = 1
        finally:
            os._exit(code)
    os.close(write_end)
    want, buf = rng.randint(0, 6), b""
    while buf.count(b"\n") < want:
        chunk = os.read(read_end, 4096)
        if not chunk:
            break
        buf += chunk
    time.sleep(rng.random() * 0.002)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    while chunk := os.read(read_end, 65536):
        buf += chunk
    os.close(read_end)
    acked = -1
    for line in buf.decode().splitlines():
        assert not line.startswith("X "), f"the writer failed: {line}"
        if line.startswith("G "):
            acked = max(acked, int(line.split()[1]))
    return acked


@pytest.fixture
def root() -> Iterator[Path]:
    base = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    folder = Path(tempfile.mkdtemp(prefix="studyhall-learner-kill-", dir=base))
    try:
        yield folder / "learner"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_sigkill_mid_append_loses_no_acknowledged_grade(root: Path) -> None:
    rng = random.Random(15)
    acked = -1
    torn = 0
    for kills in range(1, TRIALS + 1):
        acked = max(acked, _trial(root, rng))
        path = root / "reviews.jsonl"
        torn += path.exists() and not path.read_bytes().endswith(b"\n")
        got = JsonlLearnerStore(root).grades()
        numbers = [int(r.id.split("_")[1]) for r in got.records]
        assert numbers == list(range(len(numbers))), "grades are not contiguous"
        assert (numbers[-1] if numbers else -1) >= acked, "an acknowledged grade is lost"
        assert got.skipped <= kills
        assert all("not valid JSON" in r or "torn last line" in r for r in got.skipped_reasons)
        assert got.records == tuple(grade(n) for n in numbers)  # nothing half-read

    final = JsonlLearnerStore(root).grades()
    assert final.replayed >= TRIALS // 2  # restarts replayed their last grade; all ignored
    assert acked > 50 and torn >= 2, f"too few kills landed mid-write ({torn} torn lines)"
    # The derived card is the replay of exactly the surviving grades.
    evidence = LearnerEvidence(final.records)
    mine = [Graded(r.at, r.grade) for r in final.records if r.node_id == "n_1"]
    assert replay(evidence.graded("n_1"), T0).card == replay(mine, T0).card
