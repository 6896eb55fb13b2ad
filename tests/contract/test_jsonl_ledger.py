"""The JSONL ledger file itself: tolerant reads, clean appends, incremental and replaced files."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import ClassVar

import pytest
from pydantic import model_validator
from studyhall.adapters.store import JsonlLedger, atomic_write_bytes
from studyhall.core.contracts.graph import EdgeAdded, PropositionCreated

from tests.support.records import edge, proposition


class CountingProposition(PropositionCreated):
    """Counts how many records a reader validates (to prove re-reads are incremental)."""

    parsed: ClassVar[int] = 0

    @model_validator(mode="after")
    def _count(self) -> CountingProposition:
        CountingProposition.parsed += 1
        return self


def line(record) -> bytes:
    return record.model_dump_json(by_alias=True).encode() + b"\n"


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "graph" / "propositions.jsonl"


@pytest.fixture
def ledger(path: Path) -> JsonlLedger[PropositionCreated]:
    return JsonlLedger(path, PropositionCreated, label="graph/propositions.jsonl")


def test_append_writes_one_json_line_per_record(ledger, path: Path) -> None:
    ledger.append([proposition("p1"), proposition("p2")])
    lines = path.read_bytes().splitlines()
    assert len(lines) == 2 and path.read_bytes().endswith(b"\n")
    assert PropositionCreated.model_validate_json(lines[1]) == proposition("p2")


def test_a_corrupt_line_in_the_middle_is_skipped_and_reported(ledger, path: Path) -> None:
    path.parent.mkdir(parents=True)
    good = line(proposition("p1")) + line(proposition("p3"))
    wrong_shape = b'{"kind": "proposition", "id": "p2"}\n'
    path.write_bytes(line(proposition("p0")) + b'{"kind": "propo\n' + wrong_shape + good)
    got = ledger.read()
    assert [r.id for r in got.records] == ["p0", "p1", "p3"]
    assert got.skipped == 2
    assert got.skipped_reasons[0].startswith("graph/propositions.jsonl line 2: not valid JSON")
    assert "line 3: does not fit PropositionCreated" in got.skipped_reasons[1]
    ledger.append([proposition("p4")])
    assert [r.id for r in ledger.read().records] == ["p0", "p1", "p3", "p4"]
    assert ledger.read().skipped == 2  # counted once, not again on every read


def test_blank_lines_are_not_records_and_not_errors(ledger, path: Path) -> None:
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\n" + line(proposition("p1")) + b"  \n")
    got = ledger.read()
    assert [r.id for r in got.records] == ["p1"] and got.skipped == 0


def test_a_torn_last_line_is_skipped_and_the_next_append_starts_clean(ledger, path) -> None:
    ledger.append([proposition("p1")])
    with open(path, "ab") as f:
        f.write(line(proposition("p2"))[:40])  # a writer killed mid-line
    got = ledger.read()
    assert [r.id for r in got.records] == ["p1"]
    assert got.skipped == 1 and "torn last line" in got.skipped_reasons[-1]
    ledger.append([proposition("p3")])
    fresh = JsonlLedger(path, PropositionCreated).read()
    assert [r.id for r in fresh.records] == ["p1", "p3"]
    assert fresh.skipped == 1 and "not valid JSON" in fresh.skipped_reasons[0]
    assert [r.id for r in ledger.read().records] == ["p1", "p3"]
    assert path.read_bytes().count(b"\n") == 3


def test_an_unterminated_complete_line_counts_only_once_finished(ledger, path: Path) -> None:
    # The write got every byte but the newline: not acknowledged, so not read yet...
    path.parent.mkdir(parents=True)
    path.write_bytes(line(proposition("p1")) + line(proposition("p2"))[:-1])
    assert [r.id for r in ledger.read().records] == ["p1"]
    # ...and once the next append terminates it, it is a whole, valid line.
    ledger.append([proposition("p3")])
    got = ledger.read()
    assert [r.id for r in got.records] == ["p1", "p2", "p3"] and got.skipped == 0


def test_rereads_parse_only_new_lines(path: Path) -> None:
    writer = JsonlLedger(path, PropositionCreated)
    reader = JsonlLedger(path, CountingProposition)
    writer.append([proposition(f"p{i}") for i in range(50)])
    CountingProposition.parsed = 0
    first = reader.read()
    assert len(first.records) == 50 and CountingProposition.parsed == 50
    assert reader.read() is first  # nothing new: not even a tuple is rebuilt
    writer.append([proposition("p50"), proposition("p51")])
    second = reader.read()
    assert len(second.records) == 52 and CountingProposition.parsed == 52


def test_a_truncated_file_is_read_again_from_the_start(ledger, path: Path) -> None:
    ledger.append([proposition(f"p{i}") for i in range(10)])
    assert len(ledger.read().records) == 10
    os.truncate(path, 0)
    JsonlLedger(path, PropositionCreated).append([proposition("q1")])
    assert [r.id for r in ledger.read().records] == ["q1"]


def test_a_replaced_file_is_read_again_from_the_start(ledger, path: Path) -> None:
    ledger.append([proposition("p1"), proposition("p2")])
    ledger.read()
    atomic_write_bytes(path, line(proposition("x1")) * 3 + line(proposition("x2")) * 3)
    got = ledger.read()
    assert [r.id for r in got.records] == ["x1", "x2"] and got.replayed == 4


def rewrite_in_place(path: Path, old: bytes, new: bytes, *, last: bool) -> None:
    """Same inode, same length up to the edit, then one more record appended."""
    with open(path, "r+b") as f:
        data = f.read()
        at = data.rfind(old) if last else data.find(old)
        assert at >= 0 and len(old) == len(new)
        f.seek(0)
        f.write(data[:at] + new + data[at + len(old) :] + line(proposition("p3")))


def test_a_rewrite_in_place_of_the_first_bytes_is_noticed(ledger, path: Path) -> None:
    ledger.append([proposition("p1"), proposition("p2")])
    ledger.read()
    rewrite_in_place(path, b'"p1"', b'"z1"', last=False)
    assert [r.id for r in ledger.read().records] == ["z1", "p2", "p3"]


def test_a_rewrite_in_place_of_the_last_bytes_folded_is_noticed(ledger, path: Path) -> None:
    ledger.append([proposition("p1"), proposition("p2")])
    ledger.read()
    rewrite_in_place(path, b'12:00:00Z"}', b'12:09:00Z"}', last=True)
    got = ledger.read().records
    assert [r.id for r in got] == ["p1", "p2", "p3"] and got[1].at.minute == 9


def test_a_deleted_file_reads_empty(ledger, path: Path) -> None:
    ledger.append([proposition("p1")])
    ledger.read()
    path.unlink()
    assert ledger.read().records == ()


def test_concurrent_appends_from_threads_interleave_whole_lines(path: Path) -> None:
    ledger = JsonlLedger(path, EdgeAdded)

    def writer(k: int) -> None:
        for i in range(25):
            ledger.append([edge(f"e{k}_{i}_{j}") for j in range(4)])

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    got = JsonlLedger(path, EdgeAdded).read()
    assert len(got.records) == 400 and got.skipped == 0


def test_reasons_are_bounded_but_every_skip_is_counted(ledger, path: Path) -> None:
    path.parent.mkdir(parents=True)
    path.write_bytes(b"garbage\n" * 500 + line(proposition("p1")))
    got = ledger.read()
    assert got.skipped == 500 and len(got.skipped_reasons) == 100
    assert [r.id for r in got.records] == ["p1"]
