"""Ledger benchmark: append throughput, cold read of a 100k-record ledger, incremental re-read.

    .venv/bin/python bench/ledger.py [--records 100000] [--dir PATH]

Records are ``PropositionCreated`` (the largest ledger record, ~250 bytes). The incremental
re-read is done by a reader that has folded the ledger once, after another writer appended 100
records — what the graph snapshot pays on every request once the ledger is warm.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from studyhall.adapters.store import JsonlLedger
from studyhall.core.contracts.graph import Evidence, PropositionCreated

AT = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def record(i: int) -> PropositionCreated:
    ev = Evidence(source_id="chat_bench", message_id=f"m{i % 97}", quote="a verbatim quote")
    return PropositionCreated(
        id=f"p{i:08d}",
        node_id=f"n{i:08d}",
        text=f"Proposition number {i} is a true statement.",
        evidence=(ev,),
        source_id="chat_bench",
        run_id=f"run_{i // 500}",
        at=AT,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=100, help="records per append (one fsync)")
    parser.add_argument(
        "--dir", type=Path, default=None, help="where to write (default: a temp dir)"
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        path = Path(tmp) / "propositions.jsonl"
        writer = JsonlLedger(path, PropositionCreated)
        records = [record(i) for i in range(args.records)]

        t0 = time.perf_counter()
        for start in range(0, args.records, args.batch):
            writer.append(records[start : start + args.batch])
        batched = args.records / (time.perf_counter() - t0)

        single_path = Path(tmp) / "single.jsonl"
        single = JsonlLedger(single_path, PropositionCreated)
        n_single = min(2000, args.records)
        t0 = time.perf_counter()
        for r in records[:n_single]:
            single.append([r])
        one_by_one = n_single / (time.perf_counter() - t0)

        colds = []
        for _ in range(3):
            reader = JsonlLedger(path, PropositionCreated)
            t0 = time.perf_counter()
            got = reader.read()
            colds.append(time.perf_counter() - t0)
            assert len(got.records) == args.records and got.skipped == 0
        cold = statistics.median(colds)

        incs = []
        for k in range(5):
            fresh = [record(args.records + 100 * k + i) for i in range(100)]
            JsonlLedger(path, PropositionCreated).append(fresh)  # another writer
            t0 = time.perf_counter()
            got = reader.read()
            incs.append(time.perf_counter() - t0)
            assert len(got.records) == args.records + 100 * (k + 1)
        incremental = statistics.median(incs)

        t0 = time.perf_counter()
        for _ in range(100):
            reader.read()
        unchanged = (time.perf_counter() - t0) / 100

        size_mb = path.stat().st_size / 1e6
        print(f"ledger: {args.records} records, {size_mb:.1f} MB ({path.parent})")
        print(f"append throughput, {args.batch}/append: {batched:,.0f} records/s")
        print(f"append throughput, 1/append (fsync each): {one_by_one:,.0f} records/s")
        print(f"cold read of {args.records} records: {cold:.3f} s")
        print(f"incremental re-read after 100 new records: {incremental * 1000:.2f} ms")
        print(f"re-read with nothing new: {unchanged * 1e6:.0f} us")
        print(f"ratio cold / incremental: {cold / incremental:,.0f}x")


if __name__ == "__main__":
    main()
