"""Hostile text through the note parsers and the PII scrubber: seconds per input size, before
and after the linear-time rewrite (issue 27, F2 and the scrubber).

    .venv/bin/python bench/hostile_text.py [--before e9d76d3] [--timeout 30] [--only NAME]

Each input is built at a small size and at 2x and 4x it, and timed in a child process running
the package as it was at ``--before`` (``bench/before.py``) and as it is in the working tree.
The ratio between sizes shows the shape: ~2 per doubling is linear, ~4 quadratic, ~8 cubic.
A run past ``--timeout`` seconds is cut and printed as ``>T``; a time is the best of three
runs (one when it is over a second). ``plain`` reads markup in the first 20,000 characters of
a text (``markup_scan.MAX_MARKUP``), so its "after" times stop growing past that size.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from before import before_tree, env_for

BASE = "e9d76d3"  # the revision before the linear-time rewrite
# name -> (what runs, the repeated unit, size of the smallest input in characters)
CASES: dict[str, tuple[str, str, int]] = {
    "F2: heading '[['": ("plain", "[[", 12_000),  # the 12 KB note
    "'![[' repeated": ("plain", "![[", 6_000),
    "'[' repeated": ("plain", "[", 6_000),
    "'`' repeated": ("plain", "`", 4_000),
    "'__x ' repeated": ("plain", "__x ", 6_000),
    "note '[a](' + spaces": ("note", "[a](\0 ", 8_000),
    "note of '[[a]]' lines": ("note", "[[a]]\n", 120_000),
    "PII: 'Dr. Ab ' repeated": ("scrub", "Dr. Ab ", 32_000),  # the 32 KB
    "redaction 'bearer '": ("redact", "bearer ", 100_000),
}


def _build(unit: str, size: int) -> str:
    if "\0" in unit:  # "head\0fill": the head once, then the fill to the size
        head, fill = unit.split("\0")
        return head + fill * (size - len(head))
    return unit * (size // len(unit))


def _runner(kind: str) -> Callable[[str], object]:
    if kind == "plain":
        from studyhall.core.library.sources.notes.prose import plain

        return lambda text: plain("# " + text)
    if kind == "note":
        from studyhall.core.library.sources.notes.document import parse_note

        return lambda text: parse_note("hostile.md", text)
    if kind == "scrub":
        from studyhall.core.guardrails import scrubber

        def scrub(text: str) -> object:
            scrubber._detect.cache_clear()  # detection is cached by text: time the work
            return scrubber.scrub(text)

        return scrub
    from studyhall.core.redaction import mask_key_shapes

    return mask_key_shapes


def child(case: str, size: int) -> None:
    kind, unit, _ = CASES[case]
    run = _runner(kind)
    run("warm up")
    text = _build(unit, size)
    best = float("inf")
    for _ in range(3):  # the best of three, unless one run is already long
        started = time.perf_counter()
        run(text)
        best = min(best, time.perf_counter() - started)
        if best > 1.0:
            break
    print(f"{best:.4f}")


def _timed(tree: Path | None, case: str, size: int, timeout: float) -> float | None:
    try:
        out = subprocess.run([sys.executable, __file__, "--child", case, str(size)],
                             capture_output=True, text=True, timeout=timeout, check=True,
                             env=env_for(tree))
    except subprocess.TimeoutExpired:
        return None
    return float(out.stdout.strip())


def _cell(seconds: float | None, timeout: float) -> str:
    return f">{timeout:.0f}" if seconds is None else f"{seconds:.3f}"


def _ratios(times: list[float | None]) -> str:
    pairs = pairwise(times)
    return " ".join(f"{b / a:.1f}" if a and b else "-" for a, b in pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BASE, help="the revision to time as 'before'")
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--only", help="run the cases whose name contains this")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]))
        return
    old = before_tree(args.before)
    print(f"{'input':28} {'KB':>7} {'before s':>9} {'after s':>8}")
    for case, (_, _, size) in CASES.items():
        if args.only and args.only not in case:
            continue
        sizes = [size, 2 * size, 4 * size]
        before: list[float | None] = []
        after: list[float | None] = []
        for n in sizes:
            # Once an old run is cut, the bigger ones would be too: not run again.
            was_cut = bool(before) and before[-1] is None
            before.append(None if was_cut else _timed(old, case, n, args.timeout))
            after.append(_timed(None, case, n, args.timeout))
            print(f"{case:28} {n / 1000:>7.0f} {_cell(before[-1], args.timeout):>9} "
                  f"{_cell(after[-1], args.timeout):>8}", flush=True)
        print(f"{'':28} ratio per doubling: before {_ratios(before)}, after {_ratios(after)}")


if __name__ == "__main__":
    main()
